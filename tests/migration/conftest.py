"""Migration rehearsals run against the embedded moto server over HTTP, like the preview tests."""

from tests.preview.conftest import PROXY_TIMEOUTS, client, endpoint, fault_proxy, proxied  # noqa: F401
