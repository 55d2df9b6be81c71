package io.jstark.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * A worker's address as given on a command line: {@code host:port}.
 *
 * @param host a host name or an IP address
 * @param port the port, 0..65535
 */
public record WorkerAddress(String host, int port) {
    /**
     * Parses {@code host:port}.
     *
     * @param text the address as typed
     * @return the address
     * @throws IllegalArgumentException naming the text when it is not host:port
     */
    public static WorkerAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a worker address: expected HOST:PORT, e.g. 127.0.0.1:7070");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "': the port is not a number", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("'" + text + "': port " + port + " outside 0..65535");
        }
        return new WorkerAddress(text.substring(0, colon), port);
    }

    /**
     * Parses a comma-separated list of addresses.
     *
     * @param text e.g. {@code 10.0.0.1:7070,10.0.0.2:7070}
     * @return the addresses, in order
     */
    public static List<WorkerAddress> parseList(String text) {
        List<WorkerAddress> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                out.add(parse(part.strip()));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no worker address in '" + text + "'");
        }
        return out;
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
