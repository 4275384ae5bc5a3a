"""DynamoDB Design Studio: the router. Pages are self-sufficient (deep links skip this file)."""

import streamlit as st


def main() -> None:
    st.set_page_config(page_title="DynamoDB Design Studio", page_icon="🗂️", layout="wide")
    navigation = st.navigation({
        "Design": [
            st.Page("pages/start.py", title="Start", icon="🏠", default=True),
            st.Page("pages/model.py", title="Model", icon="✏️"),
            st.Page("pages/layout.py", title="Layout", icon="🧱"),
            st.Page("pages/preview.py", title="Preview", icon="▶️"),
        ],
        "Analyse": [
            st.Page("pages/hot_partitions.py", title="Hot partitions", icon="🔥"),
            st.Page("pages/capacity_and_cost.py", title="Capacity & cost", icon="💰"),
            st.Page("pages/changes.py", title="Changes", icon="🔀"),
        ],
        "Share": [
            st.Page("pages/report.py", title="Cost-review report", icon="📝"),
            st.Page("pages/import_and_export.py", title="Import & export", icon="📦"),
        ],
        "Workshop": [st.Page("pages/lessons.py", title="Lessons", icon="🎓")],
    })
    navigation.run()


if __name__ == "__main__":
    main()
