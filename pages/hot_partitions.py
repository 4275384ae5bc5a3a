"""Hot partitions page: key distribution and per-partition load against DynamoDB's limits, bursts, what-ifs."""

import streamlit as st

from studio.errors import ModelingError
from ui import hot_views, missing_views, session
from ui.frame import page_frame
from ui.text import plain

page_frame("Hot partitions")
document = session.current_document()
st.title(f"Hot partitions · {plain(document.get('name', 'untitled'))}")
model = session.require_model("its partitions cannot be simulated")
missing_views.require_design(model)
model_json = model.model_dump_json()

columns = st.columns([3, 2, 2, 1])
design = columns[0].selectbox("Design", hot_views.design_names(model_json), key=session.model_key("hot.design"))
indexes = hot_views.design_indexes(model_json, design)
hot_views.choose_index(indexes, hot_views.worst_index(model_json, design))
index = columns[1].selectbox("Table or index", indexes, key=session.model_key("hot.index"))
scale = columns[2].selectbox("Key values simulated per key template", list(hot_views.SCALES),
                             index=hot_views.DEFAULT_SCALE_INDEX,
                             key=session.model_key("hot.scale"),
                             help="The hottest half are simulated one by one, the colder ranks in groups. 100 "
                                  "thousand answers every change at once; 1 and 10 million take seconds (built "
                                  "once, then what-ifs reuse it)")
seed = columns[3].number_input("Seed", 0, 2**31 - 1, 42, key=session.model_key("hot.seed"))
scenario = hot_views.scenario_inputs(model)
left, middle, right = st.columns([3, 2, 3])
shards = left.slider("Write shards for the hot key (what-if)", 1, 100, 1, key=session.model_key("hot.shards"))
partitions = middle.number_input("Physical partitions (0: estimate)", 0, 100_000, 0,
                                 key=session.model_key("hot.partitions"),
                                 help="Estimated from storage (10 GB each) and throughput (3,000 RCU / 1,000 WCU)")
entity = right.selectbox("Alternative partition keys for", ["(none)", *(e.name for e in model.entities)],
                         key=session.model_key("hot.alternative_entity"))
st.caption("Loads are approximate: each pattern's peak traffic spread over key values by its inputs' "
           "distributions, hashed onto partitions of 3,000 RCU / 1,000 WCU / 10 GB ([AWS: partitions]("
           "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html)). "
           "Seeded: the same inputs always draw the same picture.")
try:
    report = hot_views.cached_report(model_json, design, index, hot_views.SCALES[scale], int(seed), scenario,
                                     shards, None if entity == "(none)" else entity, int(partitions) or None)
except ModelingError as exc:
    st.error(f"The simulation could not run: {plain(exc)}", icon="⛔")
    st.stop()

hot_views.findings(report)
tabs = st.tabs(["Key distribution", "Partitions over time", "What-ifs"])
with tabs[0]:
    hot_views.distribution(report, index)
with tabs[1]:
    hot_views.timeline(report, scenario)
with tabs[2]:
    hot_views.what_ifs(report)
