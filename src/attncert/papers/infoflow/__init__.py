"""InfoFlow (Yu, Jiang, Bao, Li 2026): the model of Section 5, Trees of Comparison, and the constructions and
witnesses of Theorems 1 and 4-6."""
