# The paper's star-free expression for (ab)* (§2.1):
# (b Σ* ∪ Σ* a ∪ Σ* aa Σ* ∪ Σ* bb Σ*)ᶜ, with Σ* written ~[]
alphabet a b
~(b~[] | ~[]a | ~[]aa~[] | ~[]bb~[])
