"""Standings."""

import streamlit as st

st.title("Standings")
