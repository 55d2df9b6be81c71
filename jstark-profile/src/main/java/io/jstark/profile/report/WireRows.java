package io.jstark.profile.report;

import io.jstark.profile.analysis.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timing report's section for a proof made on workers: per phase, what crossed the wire between the coordinator
 * and its workers, as the coordinator measured it on every call. A proof made on workers saves its rows in its
 * timeline's metadata under {@link #METADATA}, so that the report of the saved timeline shows them too; a proof made
 * here saves none.
 */
public final class WireRows {
    /** The timeline metadata key of the rows: a list of one object per phase, its keys {@link Row}'s components. */
    public static final String METADATA = "wire";

    private WireRows() {}

    /**
     * One phase's traffic.
     *
     * @param phase the phase the calls were made in ({@code open}, {@code main_tree}, ..., {@code heartbeat})
     * @param calls the calls made
     * @param sentBytes the bytes of the messages sent to the workers
     * @param receivedBytes the bytes of the messages received from them
     * @param rpcNanos the wall time during which at least one of the phase's calls was in flight
     */
    public record Row(String phase, long calls, long sentBytes, long receivedBytes, long rpcNanos) {}

    /**
     * The section: a title, a line on what the columns measure, then one line per phase and a total (empty without rows).
     *
     * @param rows the phases' traffic, in the order they first made a call
     * @return the section's text, every line ending in a newline
     */
    public static String render(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        TextTable table = new TextTable(
                TextTable.Column.left("phase"),
                TextTable.Column.right("calls"),
                TextTable.Column.right("sent B"),
                TextTable.Column.right("received B"),
                TextTable.Column.right("rpc wall s"));
        long calls = 0;
        long sent = 0;
        long received = 0;
        for (Row r : rows) {
            table.row(r.phase(), r.calls(), r.sentBytes(), r.receivedBytes(), seconds(r.rpcNanos()));
            calls += r.calls();
            sent += r.sentBytes();
            received += r.receivedBytes();
        }
        table.row("total", calls, sent, received, null);
        return "\nWire: the coordinator's calls to its workers per phase, measured on each call. sent B / received B = the\n"
                + "serialized messages (payload before HTTP/2 framing and TLS); rpc wall s = the wall time with at least one of\n"
                + "the phase's calls in flight (a round's call holds the worker's work on its tables too). Phases overlap the\n"
                + "proof's own (heartbeats run throughout), so the column is not summed.\n" + table.render();
    }

    /**
     * The rows as timeline metadata, to be saved under {@link #METADATA}.
     *
     * @param rows the phases' traffic
     * @return per row an object of its components, in the rows' order
     */
    public static List<Map<String, Object>> toMetadata(List<Row> rows) {
        List<Map<String, Object>> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("phase", r.phase());
            row.put("calls", r.calls());
            row.put("sentBytes", r.sentBytes());
            row.put("receivedBytes", r.receivedBytes());
            row.put("rpcNanos", r.rpcNanos());
            out.add(row);
        }
        return out;
    }

    /**
     * The rows a timeline's metadata holds under {@link #METADATA}.
     *
     * @param metadata the timeline header's metadata
     * @return the rows in their saved order; none when the key is absent, and none of an entry that lacks a component
     */
    public static List<Row> fromMetadata(Map<String, Object> metadata) {
        List<Row> rows = new ArrayList<>();
        if (metadata.get(METADATA) instanceof List<?> saved) {
            for (Object item : saved) {
                if (item instanceof Map<?, ?> r
                        && r.get("phase") instanceof String phase
                        && r.get("calls") instanceof Long calls
                        && r.get("sentBytes") instanceof Long sent
                        && r.get("receivedBytes") instanceof Long received
                        && r.get("rpcNanos") instanceof Long nanos) {
                    rows.add(new Row(phase, calls, sent, received, nanos));
                }
            }
        }
        return List.copyOf(rows);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }
}
