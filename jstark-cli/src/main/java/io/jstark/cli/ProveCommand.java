package io.jstark.cli;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.TableShape;
import io.jstark.examples.Workload;
import io.jstark.instrument.ByteSize;
import io.jstark.instrument.CaptureRequest;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.instrument.Timeline;
import io.jstark.profile.report.TimingReport;
import io.jstark.profile.report.WireRows;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.StoragePlan;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jstark prove}: proves an example workload and writes the proof file. */
@Command(
        name = "prove",
        mixinStandardHelpOptions = true,
        description = "Prove an example workload and write the proof.")
public final class ProveCommand implements Callable<Integer> {
    @Mixin
    ExampleOptions example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Mixin
    RunOptions run;

    @Mixin
    ProveOutputs outputs;

    @Mixin
    ExpectationOutputs expectation;

    @Mixin
    ClusterOptions cluster;

    @Option(
            names = {"-o", "--output"},
            description = "Proof file (default: ${DEFAULT-VALUE}).",
            defaultValue = "proof.bin")
    Path output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        // fail before the proof, not after it, when anything it writes cannot be written
        ProveOutputs.requireWritableFile(output, "-o");
        expectation.requireWritable(output);
        outputs.requireWritable();
        ProofRun result = ProofRun.execute(example, proofOptions.options(), run, cluster, outputs, args, System.out);
        Files.write(output, result.bytes());
        System.out.printf("proof written to %s (%,d bytes)%n", output, result.bytes().length);
        expectation.write(output, result.proof(), result.key(), System.out);
        return 0;
    }

    /** One proof of one workload, measured. */
    record ProofRun(byte[] bytes, Proof proof, long proveNanos, SpanRecorder recorder, VerifyingKey key) {
        static ProofRun execute(
                ExampleOptions exampleOptions,
                ProofOptions options,
                RunOptions run,
                ClusterOptions cluster,
                ProveOutputs outputs,
                List<String> args,
                PrintStream out)
                throws java.io.IOException {
            Example example = exampleOptions.resolve(out);
            int logSize = exampleOptions.logSize(example);
            Optional<CaptureRequest> capture = outputs.capture();
            SpanRecorder recorder = outputs.recorder(capture);
            JstarkProver.Builder builder = run.configure(
                            Jstark.prover(example.airs()).options(options))
                    .progress(new ConsoleProgress(System.err));
            try (io.jstark.cluster.RemoteBackend remote =
                            cluster.backend(example.name(), logSize, exampleOptions.seed);
                    JstarkProver prover = (remote == null ? builder : builder.backend(remote)).build()) {
                List<TableDimensions> shapes = TableShape.dimensions(example.shapes(logSize));
                // the cheap refusals (statement rules, security, memory, spill space) before generating traces
                Security.Report security = prover.checkStatement(shapes);
                StoragePlan plan = remote == null ? prover.plan(shapes) : prover.planOwned(shapes);
                // on workers that build the tables from the recipe, this process never generates a trace
                try (Workload workload = remote == null ? example.generate(logSize, exampleOptions.seed) : null) {
                    printStatement(out, example, logSize, shapes, options, security);
                    printSettings(out, prover, plan);
                    JstarkProver.Result result = proveRecorded(prover, workload, shapes, recorder);
                    PeakMemory.Measured peaks = PeakMemory.of(result.memory());
                    Timeline timeline = recorder.timeline(metadata(
                            args,
                            example,
                            logSize,
                            options,
                            prover,
                            shapes,
                            peaks,
                            MerkleKernel.describe(options, recorder.records()),
                            remote));
                    out.printf("proved in %.3f s%n", proveWall(result, timeline) / 1e9);
                    if (remote != null) {
                        verifyOnWorkers(remote, prover, result, outputs.report, out);
                    }
                    out.println(residentLine(result));
                    if (!outputs.report) {
                        out.println("Merkle kernel "
                                + timeline.header().metadata().get(TimingReport.MERKLE_KERNEL_METADATA));
                    }
                    describeCache(prover.provingKey().diskCache(), out);
                    if (outputs.report) {
                        printTimingReport(timeline, shapes, peaks, result, out);
                    }
                    ProveOutputs.reportCapture(recorder, capture, out);
                    outputs.write(timeline, "jstark " + String.join(" ", args), out);
                    return new ProofRun(
                            result.bytes(), result.proof(), result.proveNanos(), recorder, prover.verifyingKey());
                }
            }
        }

        private static void printStatement(
                PrintStream out,
                Example example,
                int logSize,
                List<TableDimensions> shapes,
                ProofOptions options,
                Security.Report security) {
            out.printf(
                    "proving '%s' (%s = %d): %d tables, %,d main cells; %s%n",
                    example.name(), example.sizeParameter(), logSize, shapes.size(), mainCells(shapes), options);
            out.printf("security: %s%n", security.summary());
        }

        /** The prover's parallelism, its memory budget and gate, and the storage plan's first line and notes. */
        private static void printSettings(PrintStream out, JstarkProver prover, StoragePlan plan) {
            out.printf(
                    "k = %d tables at once, %d worker threads; memory budget %s; memory gate %s (from the storage plan)%n",
                    prover.settings().tableParallelism(),
                    prover.pool().parallelism(),
                    plan.budgetText(),
                    ByteSize.format(plan.gateBudgetBytes()));
            VectorPathNote.line().ifPresent(out::println);
            out.println(plan.lines().getFirst());
            for (String note : plan.notes()) {
                out.println("note: " + note);
            }
        }

        /**
         * The proof, with {@code recorder} recording its spans; the garbage collected first, so the peaks are its own.
         * Without a workload (on workers that build the tables), the backend proves the tables it owns.
         */
        private static JstarkProver.Result proveRecorded(
                JstarkProver prover, Workload workload, List<TableDimensions> shapes, SpanRecorder recorder) {
            PeakMemory.collectGarbage();
            Spans.start(recorder);
            try {
                return workload == null ? prover.proveOwned(shapes) : prover.prove(workload.tables());
            } finally {
                Spans.stop(recorder);
            }
        }

        /** One figure, the same the timing report's root row shows: the prover's own 'prove' span. */
        private static long proveWall(JstarkProver.Result result, Timeline timeline) {
            long proveWall = result.proveNanos();
            for (var span : timeline.spans()) {
                if (span.parentId() == 0 && span.label().equals(SpanLabels.PROVE)) {
                    proveWall = span.durationNanos();
                }
            }
            return proveWall;
        }

        /**
         * Verifies a proof made on the workers before it is written (a worker may answer values that are not its
         * tables'), then says where it was made and, without the timing report, its traffic.
         */
        private static void verifyOnWorkers(
                io.jstark.cluster.RemoteBackend remote,
                JstarkProver prover,
                JstarkProver.Result result,
                boolean report,
                PrintStream out) {
            // the coordinator holds no trace: the statement is the one the proof carries, its public inputs those the
            // workers reported
            try {
                Jstark.verify(prover.verifyingKey(), io.jstark.protocol.Statement.of(result.proof()), result.bytes());
            } catch (io.jstark.protocol.ProofRejectedException e) {
                throw new io.jstark.cluster.ClusterException(
                        "the proof made on the workers " + remote.workers() + " does not verify, so it is not written: "
                                + e.getMessage(),
                        e);
            }
            out.printf(
                    "proved on %d workers %s; the proof verifies. %s%n",
                    remote.workers().size(),
                    remote.workers(),
                    report
                            ? "The timing report's Wire section has the traffic per phase."
                            : "Calls, bytes and wall time on the wire per phase:");
            if (!report) {
                out.print(remote.traffic());
            }
        }

        private static void printTimingReport(
                Timeline timeline,
                List<TableDimensions> shapes,
                PeakMemory.Measured peaks,
                JstarkProver.Result result,
                PrintStream out) {
            Map<String, TimingReport.TableInfo> tables = Reports.tableInfo(shapes);
            out.println();
            out.print(Reports.timing(timeline, tables, peaks, result.plan().prediction(), result.memoryComparison())
                    .render());
            out.println();
        }

        /** The process's peak resident memory, measured against the plan's prediction (exact bytes for scripts too). */
        static String residentLine(JstarkProver.Result result) {
            io.jstark.storage.memory.MemoryMeter.Phase peak =
                    io.jstark.storage.memory.MemoryMeter.peak(result.memory());
            io.jstark.storage.memory.MemoryPrediction predicted = result.plan().prediction();
            if (peak.residentAnonymous() < 0) {
                return "resident memory: not available on this system (predicted peak anonymous "
                        + ByteSize.format(predicted.peakRamBytes()) + ")";
            }
            if (!predicted.jvm().counted()) {
                return "resident memory"
                        + (Invocation.inDaemon()
                                ? " of the warm daemon's process (it keeps the heap earlier commands grew and the off-heap"
                                        + " blocks they closed;"
                                        + " JSTARK_DAEMON=off: this command's own JVM)"
                                : "")
                        + ": peak anonymous "
                        + ByteSize.format(peak.residentAnonymous()) + " measured, file-backed "
                        + ByteSize.format(peak.residentFile()) + " measured"
                        + " (predicted only with --memory-budget, which fixes the JVM's heap; without one the JVM is not counted)";
            }
            return String.format(
                    java.util.Locale.ROOT,
                    "resident memory: peak anonymous %s measured, %s predicted (%.1f%%); file-backed %s measured, at most %s predicted "
                            + "[bytes: anon %d %d, file %d %d]",
                    ByteSize.format(peak.residentAnonymous()),
                    ByteSize.format(predicted.peakRamBytes()),
                    100.0 * peak.residentAnonymous() / predicted.peakRamBytes(),
                    ByteSize.format(peak.residentFile()),
                    ByteSize.format(predicted.peakResidentFileBytes()),
                    peak.residentAnonymous(),
                    predicted.peakRamBytes(),
                    peak.residentFile(),
                    predicted.peakResidentFileBytes());
        }

        /** Where the preprocessed commitments came from, when the cache was asked for any. */
        private static void describeCache(PreprocessedCache cache, PrintStream out) {
            if (cache == null) {
                return;
            }
            PreprocessedCache.Stats s = cache.stats();
            if (s.hits() + s.misses() + s.rejected() > 0) {
                out.println(SafeText.of(String.format(
                        "preprocessed commitments: %d loaded from the cache %s, %d computed%s%s",
                        s.hits(),
                        cache.directory(),
                        s.misses() + s.rejected(),
                        s.rejected() > 0 ? " (" + s.rejected() + " damaged entries replaced)" : "",
                        s.unstored() > 0 ? "; " + s.unstored() + " could not be stored there" : "")));
            }
        }

        /** Sum of rows x main columns over the tables. */
        private static long mainCells(List<TableDimensions> shapes) {
            long cells = 0;
            for (TableDimensions t : shapes) {
                cells += (long) t.rows() * t.air().mainWidth();
            }
            return cells;
        }

        /**
         * What the timeline file says about the run, enough for {@code jstark profile report} to rebuild the report: a
         * proof made on workers saves their traffic so far (the report reads its wire rows from here).
         */
        private static Map<String, Object> metadata(
                List<String> args,
                Example example,
                int logSize,
                ProofOptions options,
                JstarkProver prover,
                List<TableDimensions> shapes,
                PeakMemory.Measured peaks,
                String merkleKernel,
                io.jstark.cluster.RemoteBackend remote) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("command", List.copyOf(args));
            meta.put("example", example.name());
            meta.put("logSize", logSize);
            meta.put("options", options.toString());
            meta.put("tableParallelism", prover.settings().tableParallelism());
            meta.put("storage", prover.settings().toString());
            meta.put(TimingReport.WORKER_THREADS_METADATA, prover.pool().parallelism());
            meta.put(TimingReport.MERKLE_KERNEL_METADATA, merkleKernel);
            meta.put("jvm", Runtime.version().toString());
            List<Map<String, Object>> tables = new ArrayList<>();
            for (TableDimensions t : shapes) {
                Map<String, Object> table = new LinkedHashMap<>();
                table.put("name", t.name());
                table.put("kind", t.air().name());
                table.put("rows", (long) t.rows());
                tables.add(table);
            }
            meta.put("tables", tables);
            meta.put("peakOffHeapBytes", peaks.offHeapBytes());
            meta.put("peakHeapBytes", peaks.heapBytes());
            meta.put("peakHeapLiveBytes", peaks.heapLiveBytes());
            meta.put("peakResidentAnonymousBytes", peaks.residentAnonymousBytes());
            meta.put("peakResidentFileBytes", peaks.residentFileBytes());
            if (remote != null) {
                // the report of the saved timeline shows the wire rows the proof's own report shows
                meta.put(WireRows.METADATA, WireRows.toMetadata(ClusterOptions.wireRows(remote)));
            }
            return meta;
        }
    }
}
