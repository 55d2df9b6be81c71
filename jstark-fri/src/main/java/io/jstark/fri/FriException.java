package io.jstark.fri;

/** A FRI proof does not check out; the message says which layer and query. */
public final class FriException extends Exception {
    public FriException(String message) {
        super(message);
    }
}
