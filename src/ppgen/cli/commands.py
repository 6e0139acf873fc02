"""Registers every command module on the main group (imported lazily by main())."""
from . import cards  # noqa: F401
from . import validate  # noqa: F401
from . import build, calibrate  # noqa: F401
from . import i18n  # noqa: F401
from . import export  # noqa: F401
from . import art  # noqa: F401
from . import errata  # noqa: F401
from . import press  # noqa: F401
from . import serve  # noqa: F401
