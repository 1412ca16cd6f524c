# (aa)*: not star-free, in AC0
alphabet a b
(aa)*
