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
     * ACL rules), so the cluster and the file share one format.
     *
     * @param parse throws IllegalArgumentException when the text is not a value
     */
    static <V> SharedCodec<V> ofLines(int version, Function<V, String> line, Function<String, V> parse) {
        return new SharedCodec<>() {
            @Override
            public int version() {
                return version;
            }

            @Override
            public void write(V value, DataOutput out) throws IOException {
                out.writeUTF(line.apply(value));
            }

            @Override
            public V read(DataInput in) throws IOException {
                return parse.apply(in.readUTF());
            }
        };
    }
}
