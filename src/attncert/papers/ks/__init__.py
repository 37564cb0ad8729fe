"""Kajitsuka and Sato (ICLR 2024): the Boltzmann operator, the Theorem 2 construction and the Lemma 1
sharpness experiment."""
