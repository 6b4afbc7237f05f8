"""The dashboard's server: Streamlit's app (``app.py``, its pages) with Rollcall's own HTTP routes beside it.

``streamlit run dashboard/server.py`` (what ``rollcall dashboard`` runs) serves both from one process: the
pages' scripts and the routes share this process's memory (the signed-in devices, what changed). The routes
are listed in ``dashboard/routes.py``; a browser that leaves ends quietly (``dashboard/quiet_close.py``).
"""

from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

from dashboard.quiet_close import QuietClose
from dashboard.routes import routes

app = st.App(Path(__file__).parent / "app.py", routes=routes(), middleware=[Middleware(QuietClose)])
