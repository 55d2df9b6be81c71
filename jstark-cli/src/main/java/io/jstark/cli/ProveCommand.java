package io.jstark.cli;

import io.jstark.air.trace.TableTrace;
import io.jstark.examples.Example;
import io.jstark.examples.Workload;
import io.jstark.instrument.CaptureRequest;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.instrument.report.TimingReport;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
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
@Command(name = "prove", mixinStandardHelpOptions = true, description = "Prove an example workload and write the proof.")
public final class ProveCommand implements Callable<Integer> {
    @Mixin
    ExampleOptions example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Mixin
    RunOptions run;

    @Mixin
    ProveOutputs outputs;

    @Option(names = {"-o", "--output"}, description = "Proof file (default: ${DEFAULT-VALUE}).", defaultValue = "proof.bin")
    Path output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        ProofRun result = ProofRun.execute(example, proofOptions.options(), run, outputs, args, System.out);
        Files.write(output, result.bytes());
        System.out.printf("proof written to %s (%,d bytes)%n", output, result.bytes().length);
        return 0;
    }

    /** One proof of one workload, measured. */
    record ProofRun(byte[] bytes, Proof proof, long proveNanos, SpanRecorder recorder) {
        static ProofRun execute(ExampleOptions exampleOptions, ProofOptions options, RunOptions run, ProveOutputs outputs,
                List<String> args, PrintStream out) throws java.io.IOException {
            Example example = exampleOptions.resolve();
            int logSize = exampleOptions.logSize(example);
            Optional<CaptureRequest> capture = outputs.capture();
            SpanRecorder recorder = outputs.recorder(capture);
            WorkerPool pool = run.pool();
            try (Workload workload = example.generate(logSize, exampleOptions.seed);
                    ProvingKey key = ProvingKey.of(example.airs())) {
                out.printf("proving '%s' (%s = %d): %d tables, %,d main cells; %s%n", example.name(), example.sizeParameter(), logSize,
                        workload.size(), workload.mainCells(), options);
                int logLargest = 0;
                for (var t : workload.tables()) {
                    logLargest = Math.max(logLargest, t.logHeight() + options.logBlowup());
                }
                Security.Report security = Security.require(options, logLargest);
                out.printf("conjectured security: %d bits (limited by %s)%n", security.conjecturedBits(), security.limitingTerm());
                StarkProver prover = new StarkProver(key, options, run.settings(pool).withProgress(new ConsoleProgress(System.err)));
                PeakPredictor.Prediction predicted = Reports.PEAK_PREDICTOR.predict(workload.tables(), options, run.schedulerOptions(),
                        pool.parallelism());
                PeakMemory.reset();
                Spans.start(recorder);
                long start = System.nanoTime();
                Proof proof;
                try {
                    proof = prover.prove(workload.tables());
                } finally {
                    Spans.stop(recorder);
                }
                long nanos = System.nanoTime() - start;
                PeakMemory.Measured peaks = PeakMemory.measure();
                byte[] bytes = ProofFormat.write(proof);
                out.printf("proved in %.3f s%n", nanos / 1e9);
                Map<String, TimingReport.TableInfo> tables = Reports.tableInfo(workload);
                if (outputs.report) {
                    out.println();
                    out.print(Reports.timing(recorder.records(), tables, peaks, predicted).render());
                    out.println();
                }
                ProveOutputs.reportCapture(recorder, capture, out);
                outputs.write(recorder, metadata(args, example, logSize, options, run, pool, workload, peaks),
                        "jstark " + String.join(" ", args), out);
                return new ProofRun(bytes, proof, nanos, recorder);
            } finally {
                if (pool != WorkerPool.common()) {
                    pool.close();
                }
            }
        }

        /** What the timeline file says about the run, enough for {@code jstark profile report} to rebuild the report. */
        private static Map<String, Object> metadata(List<String> args, Example example, int logSize, ProofOptions options, RunOptions run,
                WorkerPool pool, Workload workload, PeakMemory.Measured peaks) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("command", List.copyOf(args));
            meta.put("example", example.name());
            meta.put("logSize", logSize);
            meta.put("options", options.toString());
            meta.put("scheduler", run.schedulerOptions().toString());
            meta.put("workerThreads", pool.parallelism());
            meta.put("jvm", Runtime.version().toString());
            List<Map<String, Object>> tables = new ArrayList<>();
            for (TableTrace t : workload.tables()) {
                Map<String, Object> table = new LinkedHashMap<>();
                table.put("name", t.name());
                table.put("kind", t.air().name());
                table.put("rows", (long) t.height());
                tables.add(table);
            }
            meta.put("tables", tables);
            meta.put("peakOffHeapBytes", peaks.offHeapBytes());
            meta.put("peakHeapBytes", peaks.heapBytes());
            return meta;
        }
    }
}
