package net.beaconcontroller.core.test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFParseException;

/**
 * A message listener that keeps a copy of every message it receives (a PACKET_IN's frame is only valid during the
 * call) with the switch and thread, and answers with a fixed command.
 */
public class RecordingListener implements IOFMessageListener {
    /** One call: the switch, a copy of the message, the I/O thread, when. */
    public record Call(IOFSwitch sw, OFMessage msg, String thread, long nanos) { }

    private final String name;
    private final Command result;
    private final LinkedBlockingQueue<Call> calls = new LinkedBlockingQueue<>();

    public RecordingListener(String name) {
        this(name, Command.CONTINUE);
    }

    public RecordingListener(String name, Command result) {
        this.name = name;
        this.result = result;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        calls.add(new Call(sw, copy(msg), Thread.currentThread().getName(), System.nanoTime()));
        return result;
    }

    public static OFMessage copy(OFMessage msg) {
        try {
            return OFMessageReader.read(ByteBuffer.wrap(msg.toByteArray()));
        } catch (OFParseException e) {
            throw new AssertionError("the controller handed a listener a message that does not parse: " + msg, e);
        }
    }

    /** The next call, waiting up to {@code timeout}. */
    public Call await(Duration timeout) {
        try {
            var c = calls.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (c == null) {
                throw new AssertionError("listener " + name + " was not called within " + timeout.toMillis() + " ms");
            }
            return c;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Asserts that no call arrives within {@code d} (at most 300 ms). */
    public void expectNone(Duration d) {
        if (d.toMillis() > 300) {
            throw new IllegalArgumentException("keep negative waits short");
        }
        try {
            var c = calls.poll(d.toNanos(), TimeUnit.NANOSECONDS);
            if (c != null) {
                throw new AssertionError("listener " + name + " unexpectedly received " + c.msg());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    public int pending() {
        return calls.size();
    }
}
