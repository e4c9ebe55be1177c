package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.vendor.Nicira;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * Nicira role request ({@code NXT_ROLE_REQUEST}): the controller asks to become {@code role}; the switch answers with a
 * {@link NiciraRoleReply}. A VENDOR message on the wire.
 */
public record NiciraRoleRequest(int xid, NiciraRole role) implements OFMessage {

    public NiciraRoleRequest {
        Objects.requireNonNull(role, "role");
    }

    @Override
    public OFType type() {
        return OFType.VENDOR;
    }

    @Override
    public int length() {
        return Nicira.ROLE_MESSAGE_LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.VENDOR, Nicira.ROLE_MESSAGE_LENGTH, xid);
        buf.putInt((int) Nicira.VENDOR_ID).putInt((int) Nicira.NXT_ROLE_REQUEST).putInt((int) role.value());
    }
}
