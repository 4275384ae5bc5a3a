"""Changing a live design: what changes between two models (`evolution`), the migration plan (`plan`), its
checkpointed run on an endpoint (`run`) and the runnable script it writes (`script`)."""
