package net.beaconcontroller.cbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;

/** The independent second opinion: openflowj parses what we write and writes what fake controllers send. */
final class Openflowj {
    static final OFFactory OF10 = OFFactories.getFactory(OFVersion.OF_10);

    private Openflowj() {
    }

    /** Parses exactly one message that must use every byte. */
    static OFMessage parse(byte[] bytes) throws OFParseError {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        OFMessage message = OFFactories.getGenericReader().readFrom(buf);
        assertEquals(0, buf.readableBytes(), "openflowj left bytes unread");
        return message;
    }

    static byte[] bytes(OFMessage message) {
        ByteBuf buf = Unpooled.buffer();
        message.writeTo(buf);
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }
}
