package net.beaconcontroller.core.shared;

/** How a {@link SharedTable}'s keys are written as the strings the cluster's maps are keyed by. */
public interface SharedKeys<K> {
    /** Keys that are strings already, such as names. */
    SharedKeys<String> STRINGS = new SharedKeys<>() {
        @Override
        public String format(String key) {
            return key;
        }

        @Override
        public String parse(String key) {
            return key;
        }
    };

    /** Numbers (MACs, dpids, their combinations) in unsigned hex. */
    SharedKeys<Long> HEX = new SharedKeys<>() {
        @Override
        public String format(Long key) {
            return Long.toHexString(key);
        }

        @Override
        public Long parse(String key) {
            return Long.parseUnsignedLong(key, 16);
        }
    };

    /** Ids (firewall and ACL rules) in decimal. */
    SharedKeys<Integer> INTS = new SharedKeys<>() {
        @Override
        public String format(Integer key) {
            return Integer.toString(key);
        }

        @Override
        public Integer parse(String key) {
            return Integer.valueOf(key);
        }
    };

    String format(K key);

    /** @throws IllegalArgumentException when {@code key} is not one {@link #format} writes */
    K parse(String key);
}
