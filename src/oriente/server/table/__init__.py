"""The table actor and what it is made of, each part owning its own state:

- `settings`: what a table is created with and the seats taken at it, as stored;
- `inbox`: the messages the server's own parts send a table;
- `actor`: the actor itself (`Table`), which applies them in order.

The rest of the server imports from here.
"""

from .actor import (
    ABANDON_AFTER_S,
    CHAT_BURST,
    CHAT_EVERY_S,
    ENDED,
    FAILED_MESSAGE,
    HISTORY_CHUNK,
    LOG_SOFT_CAP,
    RECORD_FORMAT,
    SPECTATOR,
    TABLE_EVENTS,
    Table,
    TableError,
    history_frames,
    same_prompt,
)
from .inbox import (
    Abandon,
    AccountJoin,
    Begin,
    CatchUp,
    Disconnected,
    OfferRematch,
    PreCommitJoin,
    Reserve,
    ResumeBot,
    SeatBot,
    Stop,
)
from .settings import NONCE_MAX, NONCE_MIN, Slot, TableSettings, nonce_token, rematch_setup, token_hash

__all__ = [
    "ABANDON_AFTER_S", "CHAT_BURST", "CHAT_EVERY_S", "ENDED", "FAILED_MESSAGE", "HISTORY_CHUNK", "LOG_SOFT_CAP",
    "NONCE_MAX", "NONCE_MIN", "RECORD_FORMAT", "SPECTATOR", "TABLE_EVENTS", "Abandon", "AccountJoin", "Begin",
    "CatchUp", "Disconnected", "OfferRematch", "PreCommitJoin", "Reserve", "ResumeBot", "SeatBot", "Slot", "Stop",
    "Table", "TableError", "TableSettings", "history_frames", "nonce_token", "rematch_setup", "same_prompt",
    "token_hash",
]
