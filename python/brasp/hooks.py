"""Hook points and the activation cache: the named places of the forward
pass where forward hooks see (and may replace) values, and the record of
them that ``run_with_cache`` returns."""

from contextlib import contextmanager

from torch import nn


class HookPoint(nn.Module):
    """An identity module: a named place in the forward pass where forward
    hooks see (and may replace) the value, and run_with_cache records it."""

    def forward(self, x):
        return x



class Cache(dict):
    """Activations by hook name (``embed.hook_out``,
    ``blocks.L.hook_resid_pre|attn_out|resid_mid|ffn_out|resid_post``,
    ``blocks.L.heads.H.hook_attended|hook_out``, ``hook_logits``), with the
    model's labels to read residual coordinates by name."""

    def __init__(self, labels, *a):
        super().__init__(*a)
        self.labels = labels

    def labelled(self, name):
        """The residual activation ``name`` [B, n, d] as {label: [B, n]}."""
        t = self[name]
        return {lab: t[..., k] for k, lab in enumerate(self.labels)}



@contextmanager
def recording(module, cache, names=None):
    """Within the block, every HookPoint of module (or those named in
    names) stores its output, detached, in cache under its module name."""
    handles = []
    for name, mod in module.named_modules():
        if isinstance(mod, HookPoint) and (names is None or name in names):
            handles.append(mod.register_forward_hook(
                lambda m, i, o, name=name: cache.__setitem__(name, o.detach())))
    try:
        yield cache
    finally:
        for h in handles:
            h.remove()
