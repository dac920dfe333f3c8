"""Campaign Ledger: an append-only, verifiable ledger of a tabletop campaign.

The one name this project installs. Its folders (ledger/, projections/, migrations/, commands/, web/)
are installed as its subpackages (pyproject.toml), and `campaign` is `campaign_ledger.cli:main`.
"""
