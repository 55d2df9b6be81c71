package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.cluster.ClusterTls;
import io.jstark.cluster.WorkerServer;
import io.jstark.instrument.Timeline;
import io.jstark.profile.TimelineJson;
import io.jstark.profile.report.WireRows;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire rows of a proof made on workers travel with its timeline: {@code profile report} of the saved timeline
 * prints the rows {@code prove} printed, and a proof made here saves none.
 */
class ClusterTimelineTest {
    @TempDir
    Path dir;

    @Test
    void theReportOfAClusterProofsSavedTimelinePrintsTheWireRowsTheProofPrinted() throws Exception {
        Path timeline = dir.resolve("cluster.json");
        CliTest.Result proved;
        try (WorkerServer worker = WorkerServer.start("127.0.0.1", 0, 1L << 30, ClusterTls.PLAINTEXT)) {
            proved = prove(timeline, "--workers", worker.address());
        }
        assertThat(proved.code()).as(proved.out() + proved.err()).isZero();
        List<WireRows.Row> saved =
                WireRows.fromMetadata(TimelineJson.read(timeline).header().metadata());
        assertThat(saved).extracting(WireRows.Row::phase).contains("open", "main_commit", "queries");
        String wireSection = WireRows.render(saved);
        assertThat(proved.out()).contains(wireSection);

        CliTest.Result report = cli("profile", "report", timeline.toString());

        assertThat(report.code()).as(report.out() + report.err()).isZero();
        assertThat(report.out()).contains(wireSection);
    }

    @Test
    void aLocalProofsTimelineSavesNoWireRowsAndItsReportHasNoWireSection() throws Exception {
        Path timeline = dir.resolve("local.json");
        CliTest.Result proved = prove(timeline);
        assertThat(proved.code()).as(proved.out() + proved.err()).isZero();
        Timeline saved = TimelineJson.read(timeline);
        assertThat(saved.header().metadata()).doesNotContainKey(WireRows.METADATA);

        CliTest.Result report = cli("profile", "report", timeline.toString());

        assertThat(report.code()).as(report.out() + report.err()).isZero();
        assertThat(proved.out()).doesNotContain("\nWire:");
        assertThat(report.out()).doesNotContain("\nWire:");
    }

    private CliTest.Result prove(Path timeline, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "-o",
                dir.resolve(timeline.getFileName() + ".bin").toString(),
                "--timeline",
                timeline.toString()));
        args.addAll(List.of(more));
        return cli(args.toArray(String[]::new));
    }
}
