"""Gelbach decomposition of persona gaps into attribute channels, with source fixed effects
and a source-cluster bootstrap computed from per-source cross-products."""

from guisekit.gelbach.bootstrap import BootstrapReplicates, bootstrap, percentile_interval
from guisekit.gelbach.data import FocalContrast, GelbachData
from guisekit.gelbach.decompose import CrossProducts, Decomposition, Estimates, decompose
from guisekit.gelbach.report import plot_decomposition, write_json, write_report, write_table
from guisekit.gelbach.result import GelbachResult, GelbachRow, gelbach

__all__ = [
    "BootstrapReplicates",
    "CrossProducts",
    "Decomposition",
    "Estimates",
    "FocalContrast",
    "GelbachData",
    "GelbachResult",
    "GelbachRow",
    "bootstrap",
    "decompose",
    "gelbach",
    "percentile_interval",
    "plot_decomposition",
    "write_json",
    "write_report",
    "write_table",
]
