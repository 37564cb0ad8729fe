"""Integrations with other tools: the pytest plugin, JUnit XML, the errata audit, the HTML report and its plots."""
