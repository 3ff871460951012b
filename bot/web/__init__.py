"""The web desk: pages served by ``poundbot serve`` beside the webhooks."""
