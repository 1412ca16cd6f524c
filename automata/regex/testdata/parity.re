# PARITY: an odd number of b's; not in AC0
alphabet a b
a* b (a* b a* b)* a*
