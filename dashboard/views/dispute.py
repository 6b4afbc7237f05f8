"""Dispute."""

import streamlit as st

st.title("Dispute")
