"""Streamlit glue shared by the pages: the session's model, the sidebar, problem display.

Pages live in `pages/` and only pages may live there (Streamlit turns every file in it into a page),
so what several pages share lives here. Nothing in `modeling/` or `costs/` imports this package.
"""
