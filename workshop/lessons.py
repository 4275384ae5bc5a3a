"""The lessons: short guided tours of the real pages, each ending with a break-it exercise.

A `Lesson` is a sequence of `Step`s. A step names the page to open (`StudioPage`, the page file), the
prepared model state to open as the attendee's model (`workshop.states`), what to look at, a question,
and a reveal function computing its numbers live (`workshop.reveals`). A `BreakIt` introduces one
mistake into the lesson's model (`workshop.breaks`) and lists the named verification steps that decide
whether the attendee's fix holds (`workshop.verification`).

Exercises whose mistake changes an answer also run the pattern on sample data (`PatternPreviewPasses`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from studio.design import Design, Operation
from studio.model import model_from_document
from workshop import breaks, reveals
from workshop.reveals import Reveal, RevealFunction
from workshop.roles import ALL_INDEXES, document_design, index_role, needs_design, resolve_roles
from workshop.states import State, state_document
from workshop.verification import (
    BillingModeMatchesRecommendation,
    CheckPasses,
    ConcurrentIncrementsExact,
    HotKeyBelowLimit,
    PatternPreviewPasses,
    PatternServed,
    PreviewPlace,
    Verification,
    VerificationStep,
    verify,
)

Document = dict[str, Any]


class StudioPage(StrEnum):
    """The real pages a step opens, by page file (what st.switch_page and st.page_link take)."""

    MODEL = "pages/model.py"
    LAYOUT = "pages/layout.py"
    HOT_PARTITIONS = "pages/hot_partitions.py"
    CAPACITY_AND_COST = "pages/capacity_and_cost.py"

    @property
    def title(self) -> str:  # type: ignore[override]  # the page's title, in place of str.title on this StrEnum
        return {StudioPage.MODEL: "Model", StudioPage.LAYOUT: "Layout", StudioPage.HOT_PARTITIONS: "Hot partitions",
                StudioPage.CAPACITY_AND_COST: "Capacity & cost"}[self]


@dataclass(frozen=True)
class Step:
    title: str
    page: StudioPage
    state: State
    look_at_source: str  # where on the page, in words; indexes named by role (`workshop.roles`)
    question_source: str
    reveal: RevealFunction

    @property
    def look_at(self) -> str:
        return state_text(self.state, self.look_at_source)

    @property
    def question(self) -> str:
        return state_text(self.state, self.question_source)

    def document(self) -> Document:
        return state_document(self.state)

    def compute_reveal(self) -> Reveal:
        return self.reveal(model_from_document(self.document()))


@dataclass(frozen=True)
class BreakIt:
    title: str
    state: State  # the lesson's model the mistake is put into
    brief_source: str  # what the attendee is told (not the answer); indexes named by role
    hint_source: str  # where to find it with the product's own checks and charts
    fix_source: str  # the fix, in words
    breaker: Callable[[Document], Document]
    steps: tuple[VerificationStep, ...]
    # the reference fix when it is not the state before the mistake (that state's design may already hold it)
    fixer: Callable[[Document], Document] | None = None

    @property
    def brief(self) -> str:
        return state_text(self.state, self.brief_source)

    @property
    def hint(self) -> str:
        return state_text(self.state, self.hint_source)

    @property
    def fix(self) -> str:
        return state_text(self.state, self.fix_source)

    def broken_document(self) -> Document:
        return self.breaker(state_document(self.state))

    def fixed_document(self) -> Document:
        """The reference fix: the lesson's model as it was before the mistake, or as `fixer` mends it."""
        document = state_document(self.state)
        document["name"] = f"{document['name']} · fixed"
        return document if self.fixer is None else self.fixer(document)

    def check(self, document: Document, preview_place: PreviewPlace | None = None) -> Verification:
        return verify(document, self.steps, preview_place)


@dataclass(frozen=True)
class Lesson:
    slug: str
    number: int
    title: str
    summary: str
    steps: tuple[Step, ...]
    break_it: BreakIt

    @property
    def model_slug(self) -> str:
        """The one model of the attendee's workspace that every step of this lesson opens into."""
        return f"lesson-{self.slug}"

    @property
    def model_name(self) -> str:
        return f"Lesson {self.number} · {self.title}"

    def placed(self, document: Document) -> Document:
        """A prepared model as the lesson's model holds it (named after the lesson, not the step)."""
        return {**document, "name": self.model_name}

    def is_untouched(self, document: Document) -> bool:
        """Whether the lesson's model is one of the lesson's prepared models as placed: nothing the
        attendee typed is in it, so another step may replace it without keeping a copy."""
        prepared = [*(step.document() for step in self.steps), self.break_it.broken_document(),
                    self.break_it.fixed_document()]
        return any(document == self.placed(candidate) for candidate in prepared)


# Indexes the lesson texts name, by the access pattern each serves (`workshop.roles`)
ROSTER = index_role("list_students_by_status")  # the roster index: students of a tenant by status
UNPAID_REPORT = index_role("list_unpaid_orders_by_date")  # the sparse index of the unpaid-orders report


@lru_cache(maxsize=len(State))
def state_design(state: State) -> Design:
    """The design a state's model opens on, computed once: the lesson texts read its index roles."""
    return document_design(state_document(state))


def state_text(state: State, source: str) -> str:
    """A lesson text with its `[index:PATTERN]` roles named as the state's design names them."""
    return resolve_roles(source, state_design(state)) if needs_design(source) else source


def lesson(slug: str) -> Lesson:
    found = next((item for item in LESSONS if item.slug == slug), None)
    if found is None:
        raise KeyError(f"no lesson `{slug}`; known: {', '.join(item.slug for item in LESSONS)}")
    return found


_L1 = Lesson("access-patterns-first", 1, "Access patterns first",
             "From the Student platform's access patterns to its keys.", (
    Step("List the access patterns", StudioPage.MODEL, State.STUDENT,
         "The Access patterns tab: each pattern's inputs, kind and peak traffic.",
         "How many access patterns are there, and which is the busiest at peak?", reveals.patterns_overview),
    Step("Let the patterns pick the keys", StudioPage.LAYOUT, State.STUDENT,
         "The proposals at the top and the access-pattern chart: which index serves which pattern.",
         "How many GSIs does the proposal need, and what does each serve?", reveals.proposal_indexes),
    Step("One pattern, one request", StudioPage.LAYOUT, State.STUDENT_DESIGNED,
         "The access-pattern chart, row get_student_by_email: operation, index and key condition.",
         "How does sign-in find a student by email, and how many items does it read?", reveals.email_lookup_plan),
), BreakIt("The leaderboard sorts as text", State.STUDENT_DESIGNED,
           "The school leaderboard (list_top_students_by_tenant) now puts 9 XP above 100 XP.",
           "Layout page, Design checks (errors): look for DDS104 and the index it names.",
           "Zero-pad the number in the leaderboard index's sort key again: {xp:6}, as the proposal writes it.",
           breaks.unpad_leaderboard, (
    CheckPasses("The sort-key padding check passes (DDS104)", ("DDS104",)),
    PatternServed("The leaderboard is served by a Query", "list_top_students_by_tenant", (Operation.QUERY,)),
    PatternPreviewPasses("The leaderboard returns the top students on sample data",
                         "list_top_students_by_tenant"),
)))

_L2 = Lesson("hot-partition", 2, "The hot partition",
             "Status as a partition key under a sign-up burst, seen on the Hot partitions page, then fixed.", (
    Step("What the checks say", StudioPage.LAYOUT, State.STUDENT_MISTAKES,
         f"Design checks, errors only: the findings on {ROSTER}'s partition key.",
         f"Which checks fail on {ROSTER}, and how busy is its busiest key value?", reveals.status_key_findings),
    Step("See it run hot", StudioPage.HOT_PARTITIONS, State.STUDENT_MISTAKES,
         f"Table or index {ROSTER}; open the burst scenario, pick create_student_by_tenant (3,700 in 0.2 s).",
         f"What share of {ROSTER}'s traffic lands on one key value, and what does the burst do to its partition?",
         reveals.status_key_hot_partition),
    Step("Fix it with the tenant in the key", StudioPage.HOT_PARTITIONS, State.STUDENT_DESIGNED,
         f"The roster index ({ROSTER}) of the designed Student platform: the skew table and the histogram.",
         "How many key values do the tenant and the status together give, and how busy is the busiest?",
         reveals.tenant_status_key),
), BreakIt("Status becomes the partition key", State.STUDENT_DESIGNED,
           "The roster index was 'simplified' to one key per status.",
           "Layout page, Design checks: DDS101 and DDS103; then Hot partitions on that index.",
           "Put the tenant back in the roster index's partition key, before the status: {tenantId} and {status}.",
           breaks.status_partition_key, (
    CheckPasses("The low-cardinality check passes for Student (DDS101)", ("DDS101",), "Student"),
    CheckPasses("No key value above one partition (DDS103)", ("DDS103",), "Student"),
    HotKeyBelowLimit("The roster's busiest key fits in one partition", "list_students_by_status"),
    PatternServed("The roster is served by a Query", "list_students_by_status", (Operation.QUERY,)),
)))

_L3 = Lesson("item-collections", 3, "Item collections and sort keys",
             "One Query for a customer and their history; begins_with and between on composite sort keys.", (
    Step("One partition, three entities", StudioPage.LAYOUT, State.CRM,
         "The table view grouped by partition key: a CUSTOMER# partition and its item types.",
         "Which entities share a customer's partition, and how many requests read them all?",
         reveals.customer_collection),
    Step("between on a composite sort key", StudioPage.CAPACITY_AND_COST, State.CRM,
         "Cost per access pattern: list_contact_logs_by_customer.",
         "How many items does a contact-history window read, and for how many RCU?", reveals.contact_window),
    Step("begins_with, then a filter", StudioPage.LAYOUT, State.CRM,
         "The access-pattern chart, row list_open_tickets_by_customer: items read vs returned.",
         "How many items are read to return the open tickets?", reveals.open_tickets_filter),
), BreakIt("Contacts leave the collection", State.CRM,
           "Contact logs were given partitions of their own.",
           "Layout page: the access-pattern chart shows a Scan; Design checks: DDS201.",
           "Key contact logs by customer again: PK CUSTOMER#{customerId}, SK CONTACT#{contactedAt}#{contactId}.",
           breaks.split_contact_collection, (
    CheckPasses("No pattern needs a Scan (DDS201)", ("DDS201",)),
    PatternServed("The contact history is one Query", "list_contact_logs_by_customer", (Operation.QUERY,)),
)))

_L4 = Lesson("gsis-cost", 4, "GSIs are copies you pay for",
             "Overloading, projections, and the write amplification when an index key changes.", (
    Step("Copies of the data", StudioPage.CAPACITY_AND_COST, State.STUDENT_DESIGNED,
         "Per table and index: storage of each GSI next to the table's.",
         "How much do the GSIs store compared with the table?", reveals.index_copies),
    Step("One index, several entities", StudioPage.LAYOUT, State.STUDENT_DESIGNED,
         f"The table viewed through each index: which entities appear in {ALL_INDEXES}.",
         "Which GSIs are overloaded, holding more than one entity?", reveals.overloaded_indexes),
    Step("Every change, every index", StudioPage.CAPACITY_AND_COST, State.STUDENT_DESIGNED,
         "Cost per access pattern: increment_student_xp_by_id and its index writes.",
         "How many write units does one XP increment cost, and why?", reveals.xp_write_amplification),
), BreakIt("A KEYS_ONLY roster", State.STUDENT_DESIGNED,
           "To save storage, the roster index now projects keys only.",
           "Layout page, Design checks (warnings): DDS205 on list_students_by_status.",
           "Project what the roster shows again (ALL, or INCLUDE name, level, email, ...).",
           breaks.keys_only_roster, (
    CheckPasses("The roster index projects what it reads (DDS205)", ("DDS205",), "list_students_by_status"),
    PatternServed("The roster is served by a Query", "list_students_by_status", (Operation.QUERY,)),
    PatternPreviewPasses("The roster returns every student's attributes on sample data", "list_students_by_status"),
), breaks.all_roster))

_L5 = Lesson("filters-dont-save", 5, "Filters don't save money",
             "The unpaid-orders report by Scan + filter against a sparse GSI, with the read units of each.", (
    Step("The report as a Scan", StudioPage.LAYOUT, State.SHOP_SCAN,
         "The access-pattern chart, row list_unpaid_orders_by_date: items read vs returned.",
         "How many orders does the report read, and how many does it return?", reveals.unpaid_report_scan),
    Step("The report on a sparse index", StudioPage.CAPACITY_AND_COST, State.SHOP_SPARSE,
         "Cost per access pattern: list_unpaid_orders_by_date's read units per request.",
         "How many RCU does a run cost now, against the Scan?", reveals.unpaid_report_sparse),
), BreakIt("The sparse index is dropped", State.SHOP_SPARSE,
           f"Someone removed {UNPAID_REPORT} 'because nothing else uses it'.",
           "Layout page: the report is a Scan again; Design checks: DDS201; Capacity & cost: its RCU.",
           f"Give Order a {UNPAID_REPORT} entry again: "
           "STATUS#{status} / ORDER#{orderDate}#{orderId}, only when status = UNPAID.",
           breaks.drop_sparse_index, (
    CheckPasses("The report needs no Scan (DDS201)", ("DDS201",), "list_unpaid_orders_by_date"),
    PatternServed("The report is served by a Query", "list_unpaid_orders_by_date", (Operation.QUERY,)),
)))

_L6 = Lesson("capacity-mode", 6, "Choosing the capacity mode",
             "The same model under flat and spiky traffic: on-demand, provisioned, auto scaling, reserved.", (
    Step("Flat traffic", StudioPage.CAPACITY_AND_COST, State.IOT_FLAT,
         "The recommendation on top and the cost by option.",
         "Which option is cheapest when traffic is flat all day, and by how much?", reveals.capacity_options),
    Step("Spiky traffic", StudioPage.CAPACITY_AND_COST, State.IOT_SPIKY,
         "The same page, with one busy hour a day: the auto scaling curve and the cost by option.",
         "What happens to provisioned (fixed) and to on-demand when the same requests come in one hour?",
         reveals.capacity_options),
), BreakIt("Billing mode by habit", State.IOT_SPIKY,
           "The table was switched to on-demand 'because traffic is spiky'.",
           "Capacity & cost page: the recommendation and the break-even utilisation.",
           "Set the table's billing mode to what the recommendation says (Model page, Table & traffic).",
           breaks.on_demand_for_steady_load, (
    BillingModeMatchesRecommendation("The billing mode matches the cost recommendation"),
)))

_L7 = Lesson("myth-busting", 7, "Myth busting",
             "Common misreadings of DynamoDB's rules, each shown wrong with a live calculation.", (
    Step("\"BatchGetItem of 10 small items costs 1 RCU\"", StudioPage.CAPACITY_AND_COST, State.CRM,
         "The quick calculator: BatchGetItem vs Query of ten 1 KB items.", "What do they cost?",
         reveals.myth_batch_get),
    Step("\"Filter expressions save capacity\"", StudioPage.LAYOUT, State.CRM,
         "The access-pattern chart: list_open_tickets_by_customer, items read vs returned.",
         "What does the filter save?", reveals.myth_filter),
    Step("\"A partition supports 1,000 RCU\"", StudioPage.HOT_PARTITIONS, State.CRM,
         "The limit lines on the traffic-per-key histogram.", "What are a partition's limits?",
         reveals.myth_partition),
    Step("\"Projection expressions reduce RCU\"", StudioPage.CAPACITY_AND_COST, State.CRM,
         "The quick calculator with an 8 KB item.", "What does a read of one attribute cost?",
         reveals.myth_projection),
    Step("\"On-demand is about 7× provisioned\"", StudioPage.CAPACITY_AND_COST, State.CRM,
         "The break-even chart.", "At full utilisation, how much cheaper is provisioned?",
         reveals.myth_on_demand_price),
    Step("\"Strongly consistent reads work on GSIs\"", StudioPage.LAYOUT, State.STUDENT_DESIGNED,
         "The access-pattern chart, row get_student_by_email.", "What happens if sign-in asks for a strong read?",
         reveals.myth_gsi_strong),
), BreakIt("A strong read on a GSI", State.STUDENT_DESIGNED,
           "Sign-in was made strongly consistent 'to be safe'.",
           "Layout page: get_student_by_email's plan and the Design checks (DDS202, DDS203).",
           "Set get_student_by_email's consistency back to eventual (an email lookup tolerates it).",
           breaks.strong_read_on_gsi, (
    CheckPasses("No strong read needs a GSI (DDS203)", ("DDS203",), "get_student_by_email"),
    CheckPasses("Sign-in reads what it returns (DDS202)", ("DDS202",), "get_student_by_email"),
    PatternServed("Sign-in is served by a Query on an index", "get_student_by_email", (Operation.QUERY,)),
)))

_L8 = Lesson("concurrent-writes", 8, "Writes that stay correct under concurrency",
             "A lost update, then a version condition, then an atomic ADD: the XP increment under 20 clients.", (
    Step("The lost update", StudioPage.LAYOUT, State.STUDENT_LOST_UPDATE,
         "Design checks (errors): DDS308 on increment_student_xp_by_id; the access-pattern chart's why column.",
         "What happens to a student's XP when two lessons finish at the same moment?", reveals.lost_update),
    Step("Optimistic locking: a version condition", StudioPage.CAPACITY_AND_COST, State.STUDENT_VERSIONED,
         "Cost per access pattern: increment_student_xp_by_id's read and write units per request.",
         "What does the version condition stop, and what does it cost each increment?",
         reveals.version_condition),
    Step("The atomic ADD", StudioPage.CAPACITY_AND_COST, State.STUDENT_DESIGNED,
         "Cost per access pattern: increment_student_xp_by_id again, as the example ships it.",
         "How many reads does an ADD need, and can it lose an increment?", reveals.atomic_add),
), BreakIt("The counter reads before it writes", State.STUDENT_DESIGNED,
           "The XP increment was rewritten to read xp and SET it one higher 'to cap it in the app'.",
           "Layout page, Design checks: DDS308; the fix is proved by 20 concurrent clients on the endpoint.",
           "Write the increment as an atomic ADD again: updates [{attribute: xp, action: ADD}] (Model page, YAML), "
           "or keep the SET under condition {kind: version_matches, attribute: version}.",
           breaks.read_modify_write_counter, (
    CheckPasses("No counter is SET without a condition (DDS308)", ("DDS308",), "increment_student_xp_by_id"),
    ConcurrentIncrementsExact("20 clients x 10 XP increments end exactly 200 higher", "increment_student_xp_by_id"),
)))

LESSONS: tuple[Lesson, ...] = (_L1, _L2, _L3, _L4, _L5, _L6, _L7, _L8)
