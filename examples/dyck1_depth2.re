# L_{1,2}, Dyck-1 of depth at most 2, over multi-character-free symbols l r
alphabet l r
(l (lr)* r)*
