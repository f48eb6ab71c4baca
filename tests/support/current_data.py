"""The current community data (the ``wh40kdc`` package, extra ``40kdc``) for tests: a skip
marker with its reason, and small helpers. CI installs the extra, so these tests run there."""

from __future__ import annotations

import pytest

from tabletop.importers import dataset

HAVE_WH40KDC = dataset.available()
needs_wh40kdc = pytest.mark.skipif(
    not HAVE_WH40KDC, reason='wh40kdc is not installed (pip install -e ".[40kdc]")')
"""Skip a test that reads the current community data when the package is absent."""
