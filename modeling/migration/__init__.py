"""Changing a live design: what changes between two models (`evolution`), the migration plan (`plan`), its
checkpointed run on an endpoint (`run`) and the runnable script it writes (`script`), the plan priced step by step
(`pricing`, the prices injected as `MigrationPricing`) and its rehearsal on the preview endpoint (`rehearsal`)."""
