package io.jstark.cli;

import io.jstark.instrument.ChromeTraceWriter;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.instrument.TimelineJson;
import io.jstark.instrument.analysis.BusyView;
import io.jstark.instrument.analysis.InstancesView;
import io.jstark.instrument.analysis.PhaseTable;
import io.jstark.instrument.analysis.SpanTree;
import io.jstark.instrument.analysis.SumRule;
import io.jstark.instrument.analysis.SumRuleResult;
import io.jstark.instrument.analysis.TimelineChecks;
import io.jstark.instrument.report.TimelineHtml;
import io.jstark.instrument.report.TimingReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jstark profile}: reads timelines written by {@code prove --timeline}. */
@Command(name = "profile", mixinStandardHelpOptions = true, description = "Analyse timelines written by 'jstark prove --timeline FILE'.",
        subcommands = {ProfileCommand.Phases.class, ProfileCommand.Busy.class, ProfileCommand.TimelineExport.class,
                ProfileCommand.Report.class})
public final class ProfileCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static List<Timeline> read(List<Path> files) throws IOException {
        List<Timeline> runs = new ArrayList<>();
        for (Path file : files) {
            runs.add(TimelineJson.read(file));
        }
        return runs;
    }

    /** {@code jstark profile phases RUN...}: the phase table over several runs, or the instances of one label. */
    @Command(name = "phases", mixinStandardHelpOptions = true, description = "Per span path over several runs: median wall, %% of total "
            + "(against the median root wall), cv%%, count per run, median busy (sum of durations) and concurrency (busy / wall). "
            + "Wall is the union of a path's intervals.")
    static final class Phases implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "RUN.json", description = "Timeline files of runs of the same workload.")
        List<Path> files;

        @Option(names = "--instances", paramLabel = "LABEL", description = "Instead, list each instance of LABEL in each run: its wall "
                + "and the gap to the next instance.")
        String instancesLabel;

        @Override
        public Integer call() throws IOException {
            List<Timeline> runs = read(files);
            if (instancesLabel != null) {
                for (int i = 0; i < runs.size(); i++) {
                    InstancesView view = InstancesView.of(runs.get(i).spans(), instancesLabel);
                    System.out.println("run " + (i + 1) + ": " + files.get(i));
                    if (view.instances().isEmpty()) {
                        System.out.println("no span labelled '" + instancesLabel + "'");
                    } else {
                        System.out.print(view.render());
                    }
                    System.out.println();
                }
                return 0;
            }
            List<List<SpanRecord>> spans = new ArrayList<>();
            for (Timeline run : runs) {
                spans.add(run.spans());
            }
            System.out.print(PhaseTable.of(spans).render());
            System.out.println();
            boolean clean = true;
            for (int i = 0; i < runs.size(); i++) {
                SpanTree tree = SpanTree.of(runs.get(i).spans());
                TimelineChecks.Result checks = TimelineChecks.check(tree);
                int checked = 0;
                List<String> violations = new ArrayList<>();
                for (SpanRecord root : tree.roots()) {
                    SumRuleResult sum = SumRule.checkPhaseTree(tree, root.id(), SumRule.DEFAULT_TOLERANCE, SumRule.DEFAULT_SLACK_NANOS);
                    checked += sum.checked().size();
                    sum.violations().forEach(v -> violations.add(String.format(java.util.Locale.ROOT, "%s: children %.4f of the phase",
                            v.parent(), v.ratio())));
                }
                boolean ok = checks.isClean() && violations.isEmpty();
                clean &= ok;
                System.out.printf("run %d (%s): sum rule %s over %d phases%s; %s", i + 1, files.get(i),
                        violations.isEmpty() ? "ok" : "VIOLATED", checked, violations.isEmpty() ? "" : " " + violations, checks.render());
            }
            return clean ? 0 : 1;
        }
    }

    /** {@code jstark profile busy RUN}: how busy the machine was in each phase. */
    @Command(name = "busy", mixinStandardHelpOptions = true, description = "For each phase: its wall, the CPU time the process spent "
            + "inside it and busy%% = CPU / (wall x cores).")
    static final class Busy implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN.json", description = "A timeline file.")
        Path file;

        @Override
        public Integer call() throws IOException {
            System.out.print(BusyView.of(TimelineJson.read(file)).render());
            return 0;
        }
    }

    /** {@code jstark profile timeline RUN --html FILE --trace-events FILE}: converts a timeline. */
    @Command(name = "timeline", mixinStandardHelpOptions = true, description = "Convert a timeline to an HTML Gantt chart and/or Chrome "
            + "trace events (Perfetto).")
    static final class TimelineExport implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN.json", description = "A timeline file.")
        Path file;

        @Option(names = "--html", paramLabel = "FILE", description = "Self-contained HTML page.")
        Path html;

        @Option(names = "--trace-events", paramLabel = "FILE", description = "Chrome trace events JSON.")
        Path traceEvents;

        @Override
        public Integer call() throws IOException {
            if (html == null && traceEvents == null) {
                throw new Main.UsageException("say what to write: --html FILE and/or --trace-events FILE");
            }
            Timeline timeline = TimelineJson.read(file);
            if (html != null) {
                ProveOutputs.createParent(html);
                TimelineHtml.write(timeline, html, title(timeline, file));
                System.out.println("timeline chart written to " + html);
            }
            if (traceEvents != null) {
                ProveOutputs.createParent(traceEvents);
                ChromeTraceWriter.write(timeline, traceEvents);
                System.out.println("trace events written to " + traceEvents + " (open in ui.perfetto.dev)");
            }
            return 0;
        }

        private static String title(Timeline timeline, Path file) {
            Object command = timeline.header().metadata().get("command");
            return command instanceof List<?> args ? "jstark " + String.join(" ", args.stream().map(String::valueOf).toList())
                    : file.getFileName().toString();
        }
    }

    /** {@code jstark profile report RUN}: the timing report of a saved run. */
    @Command(name = "report", mixinStandardHelpOptions = true, description = "Print the timing report of a saved run.")
    static final class Report implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN.json", description = "A timeline file.")
        Path file;

        @Option(names = "--root", description = "Label of the root span (default: ${DEFAULT-VALUE}).", defaultValue = "prove")
        String root;

        @Override
        public Integer call() throws IOException {
            Timeline timeline = TimelineJson.read(file);
            Map<String, Object> meta = timeline.header().metadata();
            List<TimingReport.MemoryPeak> peaks = new ArrayList<>();
            if (meta.get("peakOffHeapBytes") instanceof Long offHeap) {
                peaks.add(new TimingReport.MemoryPeak("off-heap", -1, offHeap, PeakMemory.OFF_HEAP_HOW));
            }
            if (meta.get("peakHeapLiveBytes") instanceof Long live) {
                peaks.add(new TimingReport.MemoryPeak("heap (live)", -1, live, PeakMemory.HEAP_LIVE_HOW));
            }
            if (meta.get("peakHeapBytes") instanceof Long heap) {
                peaks.add(new TimingReport.MemoryPeak("heap (pools)", -1, heap, PeakMemory.HEAP_HOW));
            }
            TimingReport report = TimingReport.builder(timeline.spans()).root(root).tables(tables(meta)).memoryPeaks(peaks).build();
            System.out.print(report.render());
            return report.selfCheckPassed() ? 0 : 1;
        }

        private static Map<String, TimingReport.TableInfo> tables(Map<String, Object> meta) {
            Map<String, TimingReport.TableInfo> tables = new LinkedHashMap<>();
            if (meta.get("tables") instanceof List<?> list) {
                for (Object item : list) {
                    if (item instanceof Map<?, ?> t && t.get("name") instanceof String name && t.get("kind") instanceof String kind
                            && t.get("rows") instanceof Long rows) {
                        tables.put(name, new TimingReport.TableInfo(kind, rows));
                    }
                }
            }
            return tables;
        }
    }
}
