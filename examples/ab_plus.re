# (ab)+: star-free, not stutter-invariant
alphabet a b
(ab)+
