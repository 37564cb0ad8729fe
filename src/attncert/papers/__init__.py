"""The two papers' constructions, witnesses and models. Their obligations are transcribed in proofs/
(package attncert_proofs); see docs/architecture.md, 'Where to add a new paper'."""
