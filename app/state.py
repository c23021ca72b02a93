"""Everything one app instance holds, built in the lifespan and hung on `app.state.hearth`."""

from __future__ import annotations

from dataclasses import dataclass

from app.chat import TurnDeps
from app.db.session import Database
from app.engine_port import EngineLike
from app.generations import GenerationHub
from app.hooks import TurnHooks
from app.ingestion import IngestionJobs
from app.limits import Admission
from app.metrics import Metrics
from app.prompt import PromptBuilder
from app.settings import Settings


@dataclass(slots=True)
class AppState:
    settings: Settings
    engine: EngineLike
    db: Database
    hub: GenerationHub
    admission: Admission
    metrics: Metrics
    hooks: TurnHooks
    prompts: PromptBuilder
    ingestion: IngestionJobs

    def turn_deps(self) -> TurnDeps:
        return TurnDeps(
            engine=self.engine, db=self.db, settings=self.settings, hooks=self.hooks,
            metrics=self.metrics, prompts=self.prompts,
        )
