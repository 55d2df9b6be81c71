package io.jstark.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on loopback in front of one port: it counts the bytes it relays each way and can go silent, reading and
 * discarding everything without closing or resetting anything, as a dropped network path or a NAT that forgot the
 * connection does.
 */
final class LoopbackRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final AtomicLong towardsTarget = new AtomicLong();
    private final AtomicLong fromTarget = new AtomicLong();
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> sockets = new ArrayList<>();
    private volatile boolean silent;

    private LoopbackRelay(ServerSocket listener, int targetPort) {
        this.listener = listener;
        this.targetPort = targetPort;
    }

    /** Starts relaying connections to {@code targetPort} on loopback. */
    static LoopbackRelay to(int targetPort) throws IOException {
        LoopbackRelay relay = new LoopbackRelay(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), targetPort);
        daemon("relay-accept", relay::acceptAll);
        return relay;
    }

    int port() {
        return listener.getLocalPort();
    }

    /** {@return the bytes relayed towards the target so far (nothing is counted once silent)} */
    long bytesTowardsTarget() {
        return towardsTarget.get();
    }

    /** {@return the bytes relayed from the target so far (nothing is counted once silent)} */
    long bytesFromTarget() {
        return fromTarget.get();
    }

    /** {@return the connections accepted so far} */
    int connections() {
        return connections.get();
    }

    /** From now on relays nothing either way, and tells neither side. */
    void goSilent() {
        silent = true;
    }

    private void acceptAll() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(target);
                }
                connections.incrementAndGet();
                daemon("relay-up", () -> pump(client, target, towardsTarget));
                daemon("relay-down", () -> pump(target, client, fromTarget));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicLong counted) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (!silent) {
                    out.write(buffer, 0, n);
                    out.flush();
                    counted.addAndGet(n);
                }
            }
        } catch (IOException e) {
            // the other pump or close() closed a socket: the connection is over
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
