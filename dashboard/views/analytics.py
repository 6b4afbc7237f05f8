"""Analytics."""

import streamlit as st

st.title("Analytics")
