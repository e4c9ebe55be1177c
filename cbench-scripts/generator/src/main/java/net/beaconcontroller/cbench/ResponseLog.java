package net.beaconcontroller.cbench;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.Locale;

/**
 * One switch's numbered PACKET_INs: when each was sent, to how many connections, and every answer (count, first
 * answer's time and connection). Numbers start at 1. Not thread-safe: the switch's lock guards it.
 */
final class ResponseLog {
    private final long dpid;
    private long[] sent = new long[1024];
    private long[] answered = new long[1024];
    private byte[] copies = new byte[1024];
    private byte[] answers = new byte[1024];
    private byte[] via = new byte[1024];
    private int next = 1;
    /** Answers naming a number never sent. */
    private long unmatched;

    ResponseLog(long dpid) {
        this.dpid = dpid;
    }

    /** Takes the next number for a PACKET_IN sent now to {@code connections} connections. */
    int send(long nanos, int connections) {
        if (next == sent.length) {
            int size = sent.length * 2;
            sent = Arrays.copyOf(sent, size);
            answered = Arrays.copyOf(answered, size);
            copies = Arrays.copyOf(copies, size);
            answers = Arrays.copyOf(answers, size);
            via = Arrays.copyOf(via, size);
        }
        int n = next++;
        sent[n] = nanos;
        copies[n] = (byte) connections;
        return n;
    }

    void answer(long number, long nanos, int connection) {
        if (number < 1 || number >= next) {
            unmatched++;
            return;
        }
        int n = (int) number;
        if (answers[n]++ == 0) {
            answered[n] = nanos;
            via[n] = (byte) connection;
        }
    }

    int sentCount() {
        return next - 1;
    }

    long unmatched() {
        return unmatched;
    }

    /** Numbers sent to at least one connection and answered {@code times} times (0: lost, 2+: duplicated). */
    long count(int times) {
        long c = 0;
        for (int n = 1; n < next; n++) {
            if (copies[n] > 0 && (times < 2 ? answers[n] == times : answers[n] >= 2)) {
                c++;
            }
        }
        return c;
    }

    /** PACKET_INs that went to no connection: every connection was SLAVE, as Open vSwitch drops them then. */
    long unsent() {
        long c = 0;
        for (int n = 1; n < next; n++) {
            if (copies[n] == 0) {
                c++;
            }
        }
        return c;
    }

    /** One CSV row per PACKET_IN: dpid,number,sent_ms,copies,answers,member,rtt_us (member, rtt empty if none). */
    void writeCsv(Writer w, Clock clock) throws IOException {
        for (int n = 1; n < next; n++) {
            w.write(String.format(Locale.ROOT, "%d,%d,%.3f,%d,%d,", dpid, n, clock.epochMillis(sent[n]), copies[n],
                    answers[n]));
            if (answers[n] > 0) {
                w.write(String.format(Locale.ROOT, "%d,%.1f", via[n], (answered[n] - sent[n]) / 1e3));
            } else {
                w.write(",");
            }
            w.write('\n');
        }
    }

    /** Maps System.nanoTime readings onto wall-clock milliseconds, so the script's times line up with ours. */
    record Clock(long millis, long nanos) {
        static Clock now() {
            return new Clock(System.currentTimeMillis(), System.nanoTime());
        }

        double epochMillis(long nanoTime) {
            return millis + (nanoTime - nanos) / 1e6;
        }
    }
}
