package net.beaconcontroller.core.shared;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.Function;

/**
 * How an application's {@link SharedTable} writes its values. The members never load each other's classes, so the
 * format is the application's contract with its own other versions: {@link #version} goes with every entry, and a
 * member ignores (and reports) entries of a version it does not read.
 */
public interface SharedCodec<V> {
    /** The format's version, 0 to 255: raised when {@link #write} changes. */
    int version();

    void write(V value, DataOutput out) throws IOException;

    /** @throws IOException or IllegalArgumentException when the bytes are not a value */
    V read(DataInput in) throws IOException;

    /**
     * Values written as one line of text each, as applications keep them in their files (static flows, firewall and
     * ACL rules), so the cluster and the file share one format. A line of any length: one that fits
     * {@link DataOutput#writeUTF} (65,535 bytes) is written that way, as versions before longer lines did, so they
     * still read it; a longer one is an empty string (no value's line is empty) followed by the number of pieces and
     * the pieces.
     *
     * @param parse throws IllegalArgumentException when the text is not a value
     */
    static <V> SharedCodec<V> ofLines(int version, Function<V, String> line, Function<String, V> parse) {
        return new LineCodec<>(version, line, parse);
    }
}
