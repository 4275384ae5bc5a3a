"""Test fixture files kept in the repository: named explicitly, so a missing file fails instead of skipping."""

from __future__ import annotations

from pathlib import Path

FIXTURES_DIR = Path(__file__).resolve().parent / "fixtures"
WORKBENCH_DIR = FIXTURES_DIR / "nosql-workbench"

# Every NoSQL Workbench file the tests read (sources and licences: fixtures/nosql-workbench/README.md).
WORKBENCH_FILES = (
    "BankModel.json", "CartModel.json", "ChatSystemSchema.json", "ComplaintManagementSchema.json",
    "ConnectedVehiclesSchema.json", "FlightsFares.json", "GamePlayerProfilesSchema.json", "Hospital.json",
    "Phone_Billing.json", "RecurringPaymentsSchema.json", "SessionManagementSchema.json",
    "SocialNetworkSchema.json",
)


def workbench_file(name: str) -> Path:
    """The path of a vendored Workbench file; FileNotFoundError (a failure, never a skip) when it is missing."""
    path = WORKBENCH_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"test fixture {path} is missing; see {WORKBENCH_DIR / 'README.md'}")
    return path
