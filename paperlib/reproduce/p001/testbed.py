"""Paper 001's experiment plan: profiles, queue configurations and sweep points for the ns-3 testbed.

Everything printed comes from ``data/001``: the RED parameter sets of Table 1, the FIFO queue
sizes (60, 120, 180) and the smaller RED queue (240) of the text, the per-pair latencies of
Table 2 and the factor 3 of the long set, the loads 80 / 90 / 98 %. What is not printed is a
documented choice here:

* **Bottleneck rate.** The paper calibrates "in 100Mbps environment where every link ... set by
  100Mbps" and never states the rate of the experiments' bottleneck. Its Table 3 counts follow
  from its line only if y is in kbit/s of a 10 Mbit/s link (``operating_point.convention_search``), which is
  also the bottleneck of Christiansen et al.'s testbed whose RED settings (Table 1) it reuses.
  The two **profiles** bracket this: ``scaled`` (the ``make reproduce`` default) runs a
  10 Mbit/s bottleneck, ``full`` the paper's stated 100 Mbit/s with ten times the browsers.
  Both keep the printed queue sizes and RED thresholds in packets, so at 100 Mbit/s a full
  queue drains ten times faster; :func:`scale_pairs` names the configurations run at both
  scales to measure what that changes.
* **Calibration.** As in the paper: every link ``access_factor`` (10) times the experiments'
  bottleneck, so nothing congests, throughput measured against the number of browsers; the
  line fitted to it is inverted for the loads (``calibration``).
* **Latency reading** (:data:`LATENCY_READING`). Table 2 is headed "Short Transmission Latency
  (ms)" per node pair, which can be a one-way delay or a round trip. The only printed numbers that
  depend on it are the absolute readings of the 80 % CDFs (90 % of responses under about 500 ms
  short, 1200 ms long, FIFO and RED); read as round trips, the testbed gives about 480 and
  1020 ms, read as one-way delays about 750 and 2000 ms (the notebook reruns FIFO at 80 % with the
  other reading every time, so this stays checked). So the values are base round-trip times, as
  in the per-flow round-trip emulation of the testbeds the paper follows (Christiansen et al.).
* **Workload** (:data:`DEFAULT_WORKLOAD`, fixed before any claim was run). Mah's measured CDFs as
  ns-2 distributes them, read as ns-2 reads them by default (discrete), files per page as Mah
  counts them (``paperlib.models.web_traffic``): the measured distributions as read, because no
  source at hand says how Christiansen et al.'s program changed them (their method text was not
  found; ``docs/001-workload.md``). The ``sensitivity`` profile runs the same plan on the
  parametric family (think time median 15 s, mean 30 s); verdicts that differ say so.
* **Browser counts** come from the regenerated calibration line of the workload in use, however
  many that is (about 88 000 for 80 % of 10 Mbit/s on Mah's data: an idle browser is one pending
  timer, or nothing at all when its residual think time outlasts the run). The calibration's
  browser counts are fractions of the count the workload's moments predict for 100 %
  (``workload``), so one profile serves any workload.
* **Runs.** ``reps`` repetitions of ``sim_time_s`` simulated seconds, of which the first
  ``warmup_s`` are not measured. Every browser starts in its stationary state (equilibrium
  residual think time), so the warm-up only covers TCP and the queue filling; the notebook
  measures it (offered load and queue over time, averaged over repetitions). Repetition r of
  every configuration at a load and latency set gets the same workload and simulator seed
  (common random numbers): differences between queues are paired.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from paperlib import validate
from paperlib.data import Paper
from paperlib.models import web_traffic
from paperlib.reproduce.p001 import workload as p001_workload
from paperlib.sweep import point_seed

#: The default workload (traffic model overrides): Mah's CDFs, discrete, files per page as measured.
DEFAULT_WORKLOAD: dict = {"family": "mah", "mah_reading": "discrete", "mah_objects": "files_per_page"}
#: The alternative of the sensitivity profile: the parametric family.
SENSITIVITY_WORKLOAD: dict = {"family": "parametric"}


@dataclass(frozen=True)
class Profile:
    """One scale of the whole experiment (see the module docstring)."""

    name: str
    bottleneck_bps: float
    calibration_fractions: tuple[float, ...]
    calibration_reps: int
    reps: int
    sim_time_s: float
    warmup_s: float
    access_factor: float = 10.0
    workload: tuple = tuple(sorted(DEFAULT_WORKLOAD.items()))
    calibration_browsers: tuple[int, ...] | None = None  # explicit counts instead of fractions (tests)

    def as_dict(self) -> dict:
        """Return the profile's fields as a dict."""
        return asdict(self)

    @property
    def traffic(self) -> dict:
        """Return the traffic model overrides of this profile's workload."""
        return dict(self.workload)

    def predicted_kbps_per_browser(self) -> float:
        """Return the workload's think-time-only load per browser (kbit/s), from its moments."""
        return web_traffic.offered_bps_per_browser(web_traffic.model(self.traffic)) / 1e3

    def calibration_counts(self) -> tuple[int, ...]:
        """Return the calibration's browser counts: explicit, or fractions of the predicted count for 100 %."""
        if self.calibration_browsers is not None:
            return tuple(int(x) for x in self.calibration_browsers)
        full = p001_workload.browsers_for_load(1.0, self.bottleneck_bps, self.predicted_kbps_per_browser())
        return tuple(max(int(round(f * full)), 1) for f in self.calibration_fractions)


_FRACTIONS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2)

PROFILES: dict[str, Profile] = {
    "scaled": Profile("scaled", 10e6, _FRACTIONS, 2, reps=10, sim_time_s=40.0, warmup_s=10.0),
    "sensitivity": Profile("sensitivity", 10e6, _FRACTIONS, 2, reps=10, sim_time_s=40.0, warmup_s=10.0,
                           workload=tuple(sorted(SENSITIVITY_WORKLOAD.items()))),
    "full": Profile("full", 100e6, _FRACTIONS, 2, reps=10, sim_time_s=70.0, warmup_s=10.0),
}

#: How much smaller the scaled profile is than the full one (link rate and browsers).
SCALE = PROFILES["scaled"].bottleneck_bps / PROFILES["full"].bottleneck_bps

LATENCY_SETS = ("short", "long")

#: Table 2's values are base round-trip times (module docstring).
LATENCY_READING = "rtt"


def profile(name: str) -> Profile:
    """Return the profile called ``name`` (raise naming the known ones)."""
    validate.choice("profile", name, tuple(PROFILES))
    return PROFILES[name]


def pairs(paper: Paper) -> list[list]:
    """Return Table 2 as [requestor, responder, latency in s] triples ("-": no pair)."""
    table = paper.tables["table2"].cells
    out = []
    for _, row in table.iterrows():
        requestor = int(row["from"].split()[-1])
        for column in ("node4", "node5", "node6"):
            if row[column].strip() != "-":
                out.append([requestor, int(column[-1]), float(row[column]) / 1000.0])
    return out


def loads(paper: Paper) -> list[float]:
    """Return the experiments' loads (fractions of the bottleneck) as the text states them."""
    return [paper.text_value(k).to_si() for k in ("load_80", "load_90", "load_98")]


def queue_configs(paper: Paper) -> dict[str, dict]:
    """Return every queue configuration the paper reports, by name, as testbed parameters.

    FIFO-60/120/180 (Fig. 3-5); RED-A/B/C with Table 1's qlen 480 and with 240 (Figs. 6-8);
    RED-A with a 180-packet queue, compared with FIFO-180 in Fig. 9. Table 1's "weight" is
    RED's averaging weight w_q (ns-3 ``QW``), "max" is max_p (ns-3 ``LInterm`` = 1 / max_p),
    "qlen" the physical queue (``MaxSize``), min_th / max_th in packets (``MinTh`` /
    ``MaxTh``); Floyd and Jacobson's original RED, not "gentle".
    """
    out = {}
    for key in ("fifo_q60", "fifo_q120", "fifo_q180"):
        size = int(paper.text_value(key).value)
        out[f"FIFO-{size}"] = {"queue": "fifo", "queue_packets": size}
    red = {}
    for _, row in paper.tables["table1"].cells.iterrows():
        name = row["label"].split(";")[0].strip()
        red[name] = {"queue": "red", "queue_packets": int(row["qlen"]), "red_min_th": float(row["min_th"]),
                     "red_max_th": float(row["max_th"]), "red_weight": float(Fraction(row["weight"])),
                     "red_max_p": float(Fraction(row["max"])), "red_gentle": False}
    small = int(paper.text_value("red_q240").value)
    fig9 = int(paper.text_value("fifo_q180").value)
    for name, params in red.items():
        out[f"{name}-{params['queue_packets']}"] = params
    for name, params in red.items():
        out[f"{name}-{small}"] = {**params, "queue_packets": small}
    out[f"RED-A-{fig9}"] = {**red["RED-A"], "queue_packets": fig9}
    return out


def _common(prof: Profile) -> dict:
    return {"traffic": prof.traffic, "workload": prof.name if prof.name == "sensitivity" else "default",
            "data_digest": web_traffic.mah_digest() if prof.traffic.get("family", "mah") == "mah" else ""}


def crn_seed(load: float, latency: str, rep: int, prof: Profile, base_seed: int = 0) -> int:
    """Return the workload seed shared by every configuration at (load, latency, rep): common random numbers."""
    return point_seed({"load": load, "latency": latency, "rep": rep, "workload": prof.traffic}, base_seed)


def experiment_points(paper: Paper, prof: Profile, browsers: dict[float, int], *, configs=None,
                      latency_reading: str = LATENCY_READING, reps: int | None = None, sim_time_s: float | None = None,
                      browser_factor: float = 1.0, base_seed: int = 0) -> list[dict]:
    """Return the sweep points: every configuration x load x latency set x repetition.

    ``browsers`` maps each load to its browser count (from the calibration), multiplied by
    ``browser_factor`` (10 to run the scaled profile's counts at full scale). Repetition ``rep``
    at a load and latency set has the same ``workload_seed`` in every configuration (:func:`crn_seed`).
    """
    validate.choice("latency_reading", latency_reading, ("one_way", "rtt"))
    every = queue_configs(paper)
    names = list(every) if configs is None else list(configs)
    for name in names:
        validate.choice("configs", name, tuple(every))
    factor = paper.text_value("long_latency_factor").value
    reps = prof.reps if reps is None else int(validate.positive_integer("reps", reps))
    common = {"bottleneck_bps": prof.bottleneck_bps, "access_factor": prof.access_factor, "pairs": pairs(paper),
              "latency_reading": latency_reading, "warmup_s": prof.warmup_s,
              "sim_time_s": prof.sim_time_s if sim_time_s is None else float(sim_time_s), **_common(prof)}
    points = []
    for name in names:
        for load in loads(paper):
            if load not in browsers:
                raise validate.ParameterError(f"browsers has no count for load {load}")
            n = int(round(browsers[load] * browser_factor))
            for latency in LATENCY_SETS:
                for rep in range(reps):
                    points.append({**common, **every[name], "config": name, "load": load, "latency": latency,
                                   "latency_scale": 1.0 if latency == "short" else float(factor),
                                   "browsers": n, "rep": rep,
                                   "workload_seed": crn_seed(load, latency, rep, prof, base_seed)})
    return points


def calibration_points(paper: Paper, prof: Profile, latency_reading: str = LATENCY_READING) -> list[dict]:
    """Return the calibration sweep: browser counts x repetitions on an uncongested testbed (short latency)."""
    validate.choice("latency_reading", latency_reading, ("one_way", "rtt"))
    rate = prof.bottleneck_bps * prof.access_factor
    return [{"phase": "calibration", "bottleneck_bps": rate, "access_factor": prof.access_factor,
             "pairs": pairs(paper), "latency_reading": latency_reading, "queue": "fifo", "queue_packets": 10_000,
             "browsers": int(n), "rep": rep,
             "sim_time_s": prof.sim_time_s, "warmup_s": prof.warmup_s, "keep_responses": False, **_common(prof)}
            for n in prof.calibration_counts() for rep in range(prof.calibration_reps)]


#: Configurations run at both scales (scaled counts x 1/SCALE at full) to measure what scaling changes.
SCALE_CHECK = (("FIFO-120", 0.8, "short"), ("FIFO-120", 0.98, "short"), ("RED-A-480", 0.98, "long"))


def scale_pairs(paper: Paper, browsers: dict[float, int], *, sim_time_s: float,
                latency_reading: str = LATENCY_READING, prof: Profile | None = None) -> tuple[list[dict], list[dict]]:
    """Return (scaled points, full-scale points) of :data:`SCALE_CHECK`, one repetition each, on ``prof``'s workload."""
    out = []
    base = prof or PROFILES["scaled"]
    full = replace(PROFILES["full"], workload=base.workload, name=base.name, warmup_s=base.warmup_s)
    for prof, factor in ((base, 1.0), (full, 1 / SCALE)):
        pts = []
        for name, load, latency in SCALE_CHECK:
            pts += [p for p in experiment_points(paper, prof, browsers, configs=[name], reps=1, sim_time_s=sim_time_s,
                                                 browser_factor=factor, latency_reading=latency_reading)
                    if p["load"] == load and p["latency"] == latency]
        out.append(pts)
    return out[0], out[1]


def latency_check_points(paper: Paper, prof: Profile, browsers: dict[float, int], reading: str) -> list[dict]:
    """Return FIFO at the lowest load, both latency sets, one repetition, under latency ``reading``.

    The paper's only absolute readings of its FIFO CDFs are at 80 % ("90% of response time is less
    than around 500 ms" short, 1200 ms long); these points show what the other reading of Table 2
    (one-way vs round trip) would give there.
    """
    fifo = [name for name in queue_configs(paper) if name.startswith("FIFO")]
    low = min(loads(paper))
    return [p for p in experiment_points(paper, prof, browsers, configs=fifo, latency_reading=reading, reps=1)
            if p["load"] == low]


def table3_count_points(paper: Paper, prof: Profile, latency_reading: str = LATENCY_READING,
                        base_seed: int = 0) -> list[dict]:
    """Return FIFO-120, short latency, one replication at each of Table 3's printed browser counts."""
    counts = [int(x) for x in paper.tables["table3"].cells["The Number of Browsers"]]
    pts = experiment_points(paper, prof, dict(zip(loads(paper), counts, strict=True)), configs=["FIFO-120"], reps=1,
                            latency_reading=latency_reading, base_seed=base_seed)
    return [p for p in pts if p["latency"] == "short"]


def table3_count_loads(runs, result, bottleneck_bps: float):
    """Return, per printed Table 3 count, the measured load (throughput / bottleneck) and the regenerated line's."""
    import pandas as pd

    intercept, slope = (float(x) for x in result.params)
    return pd.DataFrame({"load_named": runs["load"], "browsers_printed": runs["browsers"],
                         "load_measured": runs["throughput_bps"] / bottleneck_bps,
                         "load_on_regenerated_line": (slope * runs["browsers"] + intercept) * 1e3 / bottleneck_bps})
