package net.beaconcontroller.maple.internal;

/** A boolean question a policy asked about a packet: a T node of the trace tree. */
sealed interface FieldTest permits FieldTest.Equals, FieldTest.Prefix {
    Field field();

    boolean holds(Header h);

    /** The field equals a value (a {@code SwitchPort} for {@link Field#IN_PORT}, else a {@code Long}). */
    record Equals(Field field, Object value) implements FieldTest {
        @Override
        public boolean holds(Header h) {
            return value.equals(h.value(field));
        }
    }

    /**
     * An IPv4 address field lies in {@code prefix/length}.
     *
     * @param prefix the address with its host bits cleared
     */
    record Prefix(Field field, int prefix, int length) implements FieldTest {
        public Prefix {
            if (!field.isAddress() || length < 0 || length > 32) {
                throw new IllegalArgumentException("a prefix test is on nw_src or nw_dst with a length 0..32, not "
                        + field + "/" + length);
            }
            prefix &= mask(length);
        }

        static int mask(int length) {
            return length == 0 ? 0 : -1 << (32 - length);
        }

        boolean contains(int address) {
            return ((address ^ prefix) & mask(length)) == 0;
        }

        /** Whether every address of {@code other} lies in this prefix. */
        boolean covers(Prefix other) {
            return other.length >= length && contains(other.prefix);
        }

        @Override
        public boolean holds(Header h) {
            return contains((int) h.bits(field));
        }
    }
}
