"""The table actor and what it is made of, each part owning its own state:

- `settings`: what a table is created with and the seats taken at it, as stored;
- `inbox`: the messages the server's own parts send a table;
- `journal`: the table's log in memory, and the record read from it;
- `viewers`: who watches the table and what each is sent (fan-out, prompts, history);
- `chat`: what a chat message may be and how often a seat may send one;
- `recovery`: a table rebuilt from its store;
- `statistics`: what the server's other parts may know of a table;
- `actor`: the actor itself (`Table`), which applies the messages in order.

The rest of the server imports from here.
"""

from ...games.kit.port import SPECTATOR
from .actor import ABANDON_AFTER_S, ENDED, FAILED_MESSAGE, Table
from .chat import CHAT_BURST, CHAT_EVERY_S, MAX_CHAT
from .inbox import (
    Abandon,
    AccountJoin,
    AccountResume,
    Begin,
    CatchUp,
    Disconnected,
    Dismiss,
    OfferRematch,
    PreCommitJoin,
    Reserve,
    ResumeBot,
    SeatBot,
    Stop,
)
from .journal import LOG_SOFT_CAP, RECORD_FORMAT, TABLE_EVENTS, Journal
from .recovery import TableError
from .settings import (
    NONCE_MAX,
    NONCE_MIN,
    Seats,
    Slot,
    TableSettings,
    nonce_token,
    rematch_setup,
    stored_game,
    token_hash,
)
from .statistics import SeatStatistics, TableStatistics
from .viewers import HISTORY_CHUNK, Viewers, history_frames, same_prompt

__all__ = [
    "ABANDON_AFTER_S", "CHAT_BURST", "CHAT_EVERY_S", "ENDED", "FAILED_MESSAGE", "HISTORY_CHUNK", "LOG_SOFT_CAP",
    "MAX_CHAT", "NONCE_MAX", "NONCE_MIN", "RECORD_FORMAT", "SPECTATOR", "TABLE_EVENTS", "Abandon", "AccountJoin",
    "AccountResume", "Begin", "CatchUp", "Disconnected", "Dismiss", "Journal", "OfferRematch", "PreCommitJoin",
    "Reserve", "ResumeBot", "SeatBot", "SeatStatistics", "Seats", "Slot", "Stop", "Table", "TableError",
    "TableSettings", "TableStatistics", "Viewers", "history_frames", "nonce_token", "rematch_setup", "same_prompt",
    "stored_game", "token_hash",
]
