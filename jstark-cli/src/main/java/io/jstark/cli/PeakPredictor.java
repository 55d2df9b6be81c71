package io.jstark.cli;

import io.jstark.air.trace.TableTrace;
import io.jstark.protocol.ProofOptions;
import io.jstark.scheduler.SchedulerOptions;
import java.util.List;

/**
 * Predicts a proof's peak memory before it runs, for the "predicted vs measured" lines of the timing report.
 * This is the hook for the storage layer's memory model: connect it in {@link Reports#PEAK_PREDICTOR}.
 */
@FunctionalInterface
public interface PeakPredictor {
    /**
     * The prediction for proving {@code tables} with these options.
     *
     * @param workerThreads the numeric worker pool's parallelism
     */
    Prediction predict(List<TableTrace> tables, ProofOptions options, SchedulerOptions scheduler, int workerThreads);

    /**
     * @param offHeapBytes predicted off-heap peak, -1 when not predicted
     * @param heapBytes    predicted heap peak, -1 when not predicted
     * @param notes        lines printed under the peaks (e.g. the model's breakdown); may be empty
     */
    record Prediction(long offHeapBytes, long heapBytes, List<String> notes) {
        public static final Prediction NONE = new Prediction(-1, -1, List.of());

        public Prediction {
            notes = List.copyOf(notes);
        }
    }

    /** Predicts nothing: the report then says that no memory model is connected. */
    PeakPredictor NONE = (tables, options, scheduler, workerThreads) -> Prediction.NONE;
}
