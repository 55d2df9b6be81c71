package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jstark.instrument.SpanRecord;
import io.jstark.instrument.Timeline;
import io.jstark.profile.TimelineJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands in-process ({@link Main#run}), on small workloads. */
public class CliTest {
    @TempDir
    static Path dir;

    static Path run1;
    static Path run2;
    static String proveOutput;

    /** A command line's exit code, stdout and stderr. */
    public record Result(int code, String out, String err) {}

    /** Runs a command line in this JVM, its System.out and System.err captured. */
    public static synchronized Result cli(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    @BeforeAll
    static void proveTwice() throws java.io.IOException {
        Files.createDirectories(dir.resolve("runs"));
        Files.createDirectories(dir.resolve("again"));
        run1 = dir.resolve("runs/run1.json");
        run2 = dir.resolve("runs/run2.json");
        Result first = cli(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "-k",
                "2",
                "-o",
                dir.resolve("vm.bin").toString(),
                "--timeline",
                run1.toString(),
                "--trace-events",
                dir.resolve("trace.json").toString(),
                "--timeline-html",
                dir.resolve("timeline.html").toString(),
                "--capture-span",
                "composition",
                "--capture-file",
                dir.resolve("composition.jfr").toString());
        assertThat(first.code()).as(first.out()).isZero();
        proveOutput = first.out();
        Result second = cli(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "-k",
                "2",
                "--no-report",
                "-o",
                dir.resolve("vm2.bin").toString(),
                "--timeline",
                run2.toString());
        assertThat(second.code()).as(second.out()).isZero();
        assertThat(second.out()).doesNotContain("Timing report");
    }

    @Test
    void proveReportsItsTimingWithAPassingSelfCheck() {
        assertThat(proveOutput)
                .contains("Timing report: prove took")
                .contains("self-check: OK")
                .containsPattern(
                        "\nJVM: (cold: no proof had completed in this JVM|warm: \\d+ proofs? had completed in this JVM)")
                .contains("process cpu s")
                .contains("utilisation")
                .containsPattern("\n  instrumentation x\\d+ ")
                .containsPattern(
                        "instrumentation = the instruments' own work at the phase boundaries .*: [0-9.]+ ms in \\d+ boundaries,"
                                + " [0-9.]+% of prove \\(the opening boundary: [0-9.]+ ms\\)")
                .contains("heap used MiB open -> close")
                .contains("off-heap MiB open -> close")
                .contains("summed span s")
                .doesNotContain("busy")
                .contains("Per table")
                .contains("Sub-operations, nested as they ran")
                .contains("Totals by kind")
                .containsPattern("\noff-heap +[0-9,.]+ +[0-9,.]+ +[0-9.]+ +RamAllocator")
                .contains("memory, predicted / measured peak")
                .doesNotContain("WARNING");
    }

    @Test
    void planAndProvePrintTheBudgetInForceNeverUnlimited() {
        Result plan = cli("plan", "--example", "mix", "--size", "2^10", "--memory-budget", "2G");
        assertThat(plan.code()).as(plan.out() + plan.err()).isZero();
        assertThat(plan.out().lines().findFirst().orElseThrow()).contains("memory budget 2.0 GiB");
        assertThat(plan.out())
                .contains("storage plan:")
                .contains("memory budget 2.0 GiB, RAM limit")
                .contains("resident anon")
                .contains("JVM: heap -Xmx")
                .doesNotContain("unlimited");
        Result prove = cli(
                "prove",
                "--example",
                "fib",
                "--rows",
                "2^8",
                "--memory-budget",
                "1G",
                "--no-report",
                "-o",
                dir.resolve("fib-budget.bin").toString());
        assertThat(prove.code()).as(prove.out() + prove.err()).isZero();
        assertThat(prove.out())
                .contains("memory budget 1.0 GiB;")
                .containsPattern("resident memory: (peak anonymous|not available)")
                .doesNotContain("unlimited");
        // without a budget the plan says where its figure came from
        Result none = cli("plan", "--example", "fib", "--rows", "2^8");
        assertThat(none.out()).contains("(physical memory, none given)").doesNotContain("unlimited");
        // without a budget the JVM's heap is not fixed and not counted: no resident figure claims to be a prediction
        Result unbudgeted = cli(
                "prove",
                "--example",
                "fib",
                "--rows",
                "2^8",
                "-o",
                dir.resolve("fib-none.bin").toString());
        assertThat(unbudgeted.code()).as(unbudgeted.out() + unbudgeted.err()).isZero();
        if (unbudgeted.out().contains("resident memory: peak anonymous")) {
            assertThat(unbudgeted.out())
                    .contains("predicted only with --memory-budget")
                    .doesNotContainPattern("MiB predicted \\(")
                    .containsPattern("resident anonymous +- ");
        }
    }

    @Test
    void proveWritesTheTimelineTheTraceEventsAndTheHtmlChart() throws Exception {
        Timeline timeline = TimelineJson.read(run1);
        assertThat(timeline.spans())
                .extracting(SpanRecord::label)
                .contains("prove", "main_commit", "main_commit_table");
        assertThat(timeline.header().metadata())
                .containsEntry("example", "vm")
                .containsKey("tables")
                .containsKey("peakOffHeapBytes");
        JsonNode trace = new ObjectMapper().readTree(dir.resolve("trace.json").toFile());
        long complete = 0;
        for (JsonNode event : trace.get("traceEvents")) {
            complete += event.get("ph").asText().equals("X") ? 1 : 0;
        }
        assertThat(complete).isEqualTo(timeline.spans().size());
        String html = Files.readString(dir.resolve("timeline.html"));
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<svg")
                .contains("class=\"table\"")
                .doesNotContain("http");
        assertThat(proveOutput)
                .contains("timeline (" + timeline.spans().size() + " spans) written to " + run1)
                .contains("timeline chart written to");
    }

    @Test
    void theCaptureSpanRecordsAJfrFileAroundTheCallerThreadPhaseAndPrintsItsPath() throws Exception {
        Path jfr = dir.resolve("composition.jfr");
        assertThat(proveOutput).contains("JFR capture of span 'composition' written to " + jfr.toAbsolutePath());
        List<RecordedEvent> spans = RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("io.jstark.Span"))
                .toList();
        // the per-table spans of the captured phase, committed while the recording ran; nothing of main_commit
        assertThat(spans)
                .extracting(e -> e.getString("label"))
                .contains("composition_table", "round2_composition")
                .doesNotContain("main_commit", "main_commit_table");
    }

    @Test
    void profilePhasesAggregatesRunsAndListsInstances() {
        Result table = cli("profile", "phases", run1.toString(), run2.toString());
        assertThat(table.code()).as(table.out()).isZero();
        assertThat(table.out())
                .contains("phase table over 2 runs")
                .contains("median wall ms")
                .contains("cv%")
                .contains("n/run")
                .contains("median summed span ms")
                .contains("concurrency")
                .containsPattern("\nprove +[0-9.]+ +100\\.0 ")
                .containsPattern("\n    main_commit_table +[0-9.]+ +[0-9.]+ +[0-9.]+ +3 ")
                .contains("run 1 (" + run1 + "): sum rule ok")
                .contains("run 2 (" + run2 + "): sum rule ok");
        Result instances = cli("profile", "phases", "--instances", "composition_table", run1.toString());
        assertThat(instances.code()).isZero();
        assertThat(instances.out())
                .contains("instances of 'composition_table'")
                .contains("gap to next ms")
                .containsPattern("\n *2 +\\d+ +jstark-driver-\\d +[0-9.]+ +[0-9.]+ +-\n");
    }

    @Test
    void profileUtilisationReportAndTimelineReadASavedRun() throws Exception {
        Result utilisation = cli("profile", "utilisation", run1.toString());
        assertThat(utilisation.out())
                .contains("utilisation %")
                .containsPattern("\nprove/main_commit +[0-9.]+ +[0-9.]+ +([0-9.]+|-)\n")
                .contains("instrumentation at the phase boundaries");
        assertThat(cli("profile", "busy", run1.toString()).out())
                .as("the old name")
                .isEqualTo(utilisation.out());
        Result report = cli("profile", "report", run1.toString());
        assertThat(report.code()).as(report.out()).isZero();
        assertThat(report.out())
                .contains("Timing report: prove took")
                .contains("self-check: OK")
                .contains("3 tables");
        Path html = dir.resolve("again/timeline.html");
        Result export = cli(
                "profile",
                "timeline",
                run2.toString(),
                "--html",
                html.toString(),
                "--trace-events",
                dir.resolve("again/trace.json").toString());
        assertThat(export.code()).as(export.out()).isZero();
        assertThat(Files.readString(html)).contains("<svg").contains("jstark prove --example vm");
        assertThat(Files.size(dir.resolve("again/trace.json"))).isPositive();
    }

    @Test
    void benchScalingPrintsMediansAFitAndAPlot() throws Exception {
        Path png = dir.resolve("scaling.png");
        Result r = cli(
                "bench",
                "scaling",
                "--example",
                "fib",
                "--sizes",
                "2^5,2^6,2^7",
                "--runs",
                "1",
                "--warmup",
                "0",
                "--plot",
                png.toString());
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out())
                .contains("prove s (median)")
                .contains("off-heap peak MiB")
                .contains("heap peak MiB")
                .containsPattern("\n2\\^5 +1 +32 ")
                .containsPattern("\n2\\^7 +1 +128 ")
                .contains("growth between consecutive sizes")
                .containsPattern("\n2\\^5 -> 2\\^6 +2\\.00 +2\\.40 +[0-9.]+ ")
                .contains("a * n log2 n + b")
                .contains("residual %")
                .contains("hides how the cost per row changes")
                .contains("slope per million rows")
                .contains("R^2")
                .containsPattern("\nprove time \\(s\\) +-?[0-9.]+ s +-?[0-9.]+ s +-?[0-9.]+\n")
                .contains("plot written to " + png);
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void benchOverheadComparesOnAndOffSideBySide() {
        Result r = cli("bench", "overhead", "--example", "fib", "--size", "2^5", "--runs", "2", "--warmup", "0");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out())
                .contains("on/off alternating")
                .containsPattern("\n +1 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\n")
                .containsPattern(
                        "\\d+ spans per proof: \\d+ phases, \\d+ instrumentation spans \\(one per boundary\\), \\d+ per-table and"
                                + " inner spans")
                .containsPattern(
                        "instrumentation rows inside the proof .*: median [0-9.]+ ms = [0-9.]+% of the median 'on' wall")
                .containsPattern("\nmedian wall s +[0-9.]+ +[0-9.]+ +[0-9.]+\n")
                .containsPattern("\nmedian process cpu s +[0-9.]+ +[0-9.]+ +[0-9.]+\n")
                .containsPattern("instrumentation costs [+-][0-9.]+% of the median wall \\(limit 2\\.0%\\)")
                .containsPattern("cost measured apart: [0-9.]+ us per phase boundary");
        // one count of boundaries: the instrumentation spans of the proof
        java.util.regex.Matcher spans = java.util.regex.Pattern.compile(
                        "(\\d+) instrumentation spans \\(one per boundary\\)")
                .matcher(r.out());
        java.util.regex.Matcher estimate =
                java.util.regex.Pattern.compile("x the (\\d+) boundaries").matcher(r.out());
        assertThat(spans.find() && estimate.find()).as(r.out()).isTrue();
        assertThat(estimate.group(1)).isEqualTo(spans.group(1));
    }

    @Test
    void benchOverheadOfTheProgressAloneComparesWithAndWithoutAListenerAndReplaysItsCalls() {
        Result r = cli(
                "bench",
                "overhead",
                "--measure",
                "progress",
                "--example",
                "fib",
                "--size",
                "2^5",
                "--runs",
                "2",
                "--warmup",
                "0");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out())
                .contains("on = the progress bar alone")
                .containsPattern("\n +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\n")
                .containsPattern("progress reporting costs [+-][0-9.]+% of the median wall \\(limit 1\\.0%\\)")
                .containsPattern("cost measured apart: the \\d+ progress calls of one proof, replayed 2000 times")
                .doesNotContain("spans per proof");
        // one table, two passes: each pass starts, finishes the table and ends, so at least 6 calls
        java.util.regex.Matcher calls =
                java.util.regex.Pattern.compile("the (\\d+) progress calls").matcher(r.out());
        assertThat(calls.find()).as(r.out()).isTrue();
        assertThat(Integer.parseInt(calls.group(1))).isGreaterThanOrEqualTo(6);
    }

    @Test
    void benchOverheadRefusesAnUnknownMeasure() {
        Result r = cli("bench", "overhead", "--measure", "everything", "--example", "fib", "--size", "2^5");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err()).contains("--measure must be 'all' or 'progress'");
    }

    @Test
    void theNLogNFitRecoversAKnownCurveAndTheGrowthTableShowsTheRatios() {
        List<BenchScaling.Point> points = new java.util.ArrayList<>();
        for (int log = 10; log <= 16; log += 2) {
            long rows = 1L << log;
            double x = (double) rows * log;
            long nanos = Math.round((3e-9 * x + 0.05) * 1e9); // 3 ns per row x log2(rows), 50 ms fixed
            points.add(new BenchScaling.Point(log, 1, rows, x, rows * 2, new long[] {nanos}, nanos, 0, 0));
        }
        LinearFit fit = LinearFit.relative(
                points.stream().mapToDouble(BenchScaling.Point::rowsLog2Rows).toArray(),
                points.stream().mapToDouble(BenchScaling.Point::seconds).toArray());
        assertThat(fit.slope()).isCloseTo(3e-9, org.assertj.core.api.Assertions.within(1e-15));
        assertThat(fit.intercept()).isCloseTo(0.05, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(ScalingTables.nLogNFit(points, fit))
                .contains("a = 3.000 ns per row x log2(rows)")
                .contains("b = 0.0500 s")
                .containsPattern("\n2\\^16 +[0-9.]+ +[0-9.]+ +[+-]0\\.0\n")
                .contains("misses the measured time by up to 0.0%")
                .doesNotContain("<= 0");
        // 4x rows from 2^10 to 2^12: n log2 n grows 4.8x
        assertThat(ScalingTables.growth(points)).containsPattern("\n2\\^10 -> 2\\^12 +4\\.00 +4\\.80 +");
    }

    @Test
    void linearFitRecoversAKnownLine() {
        LinearFit fit = LinearFit.of(new double[] {1, 2, 4}, new double[] {3, 5, 9});
        assertThat(fit.slope()).isEqualTo(2.0);
        assertThat(fit.intercept()).isEqualTo(1.0);
        assertThat(fit.rSquared()).isEqualTo(1.0);
        LinearFit noisy = LinearFit.of(new double[] {0, 1, 2, 3}, new double[] {0, 2, 1, 3});
        assertThat(noisy.slope()).isEqualTo(0.8);
        assertThat(noisy.rSquared()).isCloseTo(0.64, org.assertj.core.api.Assertions.within(1e-12));
    }
}
