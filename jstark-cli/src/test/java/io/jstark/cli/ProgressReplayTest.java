package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.prover.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressReplayTest {
    /** Writes every call it gets as one line, so that two sequences compare exactly. */
    private static final class Transcript implements ProgressListener {
        final List<String> lines = new ArrayList<>();

        @Override
        public void passStarted(String phase, int tables) {
            lines.add("start " + phase + " " + tables);
        }

        @Override
        public void tableFinished(String phase, String table, long rows) {
            lines.add("table " + phase + " " + table + " " + rows);
        }

        @Override
        public void tableStep(String phase, String table, String step) {
            lines.add("step " + phase + " " + table + " " + step);
        }

        @Override
        public void passFinished(String phase) {
            lines.add("finish " + phase);
        }
    }

    private static void onePass(ProgressListener p) {
        p.passStarted("main_commit", 2);
        p.tableStep("main_commit", "cpu", "lde");
        p.tableFinished("main_commit", "cpu", 1L << 20);
        p.tableFinished("main_commit", "memory", 1L << 18);
        p.passFinished("main_commit");
    }

    @Test
    void passesEveryCallOnAndReplaysTheSameSequenceToEachFreshListener() {
        Transcript live = new Transcript();
        ProgressReplay replay = new ProgressReplay(live);
        onePass(replay);
        Transcript expected = new Transcript();
        onePass(expected);
        assertThat(live.lines).isEqualTo(expected.lines);
        assertThat(replay.calls()).isEqualTo(5);

        List<Transcript> replayed = new ArrayList<>();
        double nanos = replay.nanosPerProof(
                () -> {
                    Transcript t = new Transcript();
                    replayed.add(t);
                    return t;
                },
                3);
        assertThat(nanos).isPositive();
        // a warm-up round and five timed rounds of three replays each, every one the whole recorded sequence
        assertThat(replayed).hasSize(6 * 3).allSatisfy(t -> assertThat(t.lines).isEqualTo(expected.lines));
    }
}
