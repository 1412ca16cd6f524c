# (a+b+)+: star-free and stutter-invariant
alphabet a b
(a+b+)+
