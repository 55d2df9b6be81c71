package io.jstark.cli;

import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.ChromeTraceWriter;
import io.jstark.profile.TimelineJson;
import io.jstark.profile.analysis.InstancesView;
import io.jstark.profile.analysis.PhaseTable;
import io.jstark.profile.analysis.SpanTree;
import io.jstark.profile.analysis.SumRule;
import io.jstark.profile.analysis.SumRuleResult;
import io.jstark.profile.analysis.TimelineChecks;
import io.jstark.profile.analysis.UtilisationView;
import io.jstark.profile.report.TimelineHtml;
import io.jstark.profile.report.TimingReport;
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
@Command(
        name = "profile",
        mixinStandardHelpOptions = true,
        description = "Analyse timelines written by 'jstark prove --timeline FILE'.",
        subcommands = {
            ProfileCommand.Phases.class,
            ProfileCommand.Utilisation.class,
            ProfileCommand.TimelineExport.class,
            ProfileCommand.Report.class
        })
public final class ProfileCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        return Main.missingSubcommand(spec);
    }

    static List<Timeline> read(List<Path> files) throws IOException {
        List<Timeline> runs = new ArrayList<>();
        for (Path file : files) {
            runs.add(TimelineJson.read(file));
        }
        return runs;
    }

    /** {@code jstark profile phases RUN...}: the phase table over several runs, or the instances of one label. */
    @Command(
            name = "phases",
            mixinStandardHelpOptions = true,
            description =
                    "Per span path over several runs: median wall, %% of total "
                            + "(against the median root wall), cv%%, count per run, median span time summed over threads (durations added up, "
                            + "waiting included: not CPU) and concurrency (summed / wall). Wall is the union of a path's intervals. Then, per run, "
                            + "the sum rule (every span split into phases is tiled by them, to the nanosecond) and the timeline checks.")
    static final class Phases implements Callable<Integer> {
        @Parameters(
                arity = "1..*",
                paramLabel = "RUN.json",
                description = "Timeline files of runs of the same workload.")
        List<Path> files;

        @Option(
                names = "--instances",
                paramLabel = "LABEL",
                description = "Instead, list each instance of LABEL in each run: its wall "
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
                SumRuleResult sum = SumRule.checkAll(tree);
                List<String> violations = new ArrayList<>();
                sum.violations()
                        .forEach(v -> violations.add(String.format(
                                java.util.Locale.ROOT,
                                "%s: children %+d ns off the phase",
                                v.parent(),
                                v.differenceNanos())));
                clean &= checks.isClean() && sum.passed();
                String sumLine = sum.checked().isEmpty()
                        ? SumRuleResult.NOTHING_CHECKED
                        : String.format(
                                "sum rule %s over %d spans split into phases%s",
                                violations.isEmpty() ? "ok" : "VIOLATED",
                                sum.checked().size(),
                                violations.isEmpty() ? "" : " " + violations);
                System.out.printf("run %d (%s): %s; %s", i + 1, files.get(i), sumLine, checks.render());
            }
            return clean ? 0 : 1;
        }
    }

    /** {@code jstark profile utilisation RUN}: how much of the machine the process used in each phase. */
    @Command(
            name = "utilisation",
            aliases = "busy",
            mixinStandardHelpOptions = true,
            description = "For each phase: its wall, the CPU "
                    + "time the process spent inside it (read inside the phase's wall window) and utilisation = CPU / (wall x cores), never "
                    + "above 100%%. ('busy' is the old name of this command.)")
    static final class Utilisation implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN.json", description = "A timeline file.")
        Path file;

        @Override
        public Integer call() throws IOException {
            System.out.print(UtilisationView.of(TimelineJson.read(file)).render());
            return 0;
        }
    }

    /** {@code jstark profile timeline RUN --html FILE --trace-events FILE}: converts a timeline. */
    @Command(
            name = "timeline",
            mixinStandardHelpOptions = true,
            description = "Convert a timeline to an HTML Gantt chart and/or Chrome " + "trace events (Perfetto).")
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
            if (html != null) {
                ProveOutputs.requireWritableFile(html, "--html");
            }
            if (traceEvents != null) {
                ProveOutputs.requireWritableFile(traceEvents, "--trace-events");
            }
            Timeline timeline = TimelineJson.read(file);
            if (html != null) {
                TimelineHtml.write(timeline, html, title(timeline, file));
                System.out.println("timeline chart written to " + html);
            }
            if (traceEvents != null) {
                ChromeTraceWriter.write(timeline, traceEvents);
                System.out.println("trace events written to " + traceEvents + " (open in ui.perfetto.dev)");
            }
            return 0;
        }

        private static String title(Timeline timeline, Path file) {
            Object command = timeline.header().metadata().get("command");
            return command instanceof List<?> args
                    ? "jstark "
                            + String.join(
                                    " ", args.stream().map(String::valueOf).toList())
                    : file.getFileName().toString();
        }
    }

    /** {@code jstark profile report RUN}: the timing report of a saved run. */
    @Command(name = "report", mixinStandardHelpOptions = true, description = "Print the timing report of a saved run.")
    static final class Report implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN.json", description = "A timeline file.")
        Path file;

        @Option(
                names = "--root",
                description = "Label of the root span (default: ${DEFAULT-VALUE}).",
                defaultValue = SpanLabels.PROVE)
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
            if (meta.get("peakResidentAnonymousBytes") instanceof Long anonymous) {
                peaks.add(new TimingReport.MemoryPeak(
                        "resident anonymous", -1, anonymous, PeakMemory.RESIDENT_ANONYMOUS_HOW));
            }
            if (meta.get("peakResidentFileBytes") instanceof Long file) {
                peaks.add(new TimingReport.MemoryPeak("resident file-backed", -1, file, PeakMemory.RESIDENT_FILE_HOW));
            }
            TimingReport report = TimingReport.builder(timeline)
                    .root(root)
                    .tables(tables(meta))
                    .memoryPeaks(peaks)
                    .build();
            System.out.print(report.render());
            return report.selfCheckPassed() ? 0 : 1;
        }

        private static Map<String, TimingReport.TableInfo> tables(Map<String, Object> meta) {
            Map<String, TimingReport.TableInfo> tables = new LinkedHashMap<>();
            if (meta.get("tables") instanceof List<?> list) {
                for (Object item : list) {
                    if (item instanceof Map<?, ?> t
                            && t.get("name") instanceof String name
                            && t.get("kind") instanceof String kind
                            && t.get("rows") instanceof Long rows) {
                        tables.put(name, new TimingReport.TableInfo(kind, rows));
                    }
                }
            }
            return tables;
        }
    }
}
