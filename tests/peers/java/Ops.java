import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DeleteAclsResult;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.DescribeUserScramCredentialsResult;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.RaftVoterEndpoint;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * One method per Admin call: JSON arguments in, the client's result objects as plain JSON values out.
 * Per-item results (topics, resources, partitions, bindings) are {"ok": ...} or {"error": ...} each.
 */
final class Ops {
    private Ops() {
    }

    static Object run(Admin admin, String op, Map<String, Object> args) throws Exception {
        return switch (op) {
            case "describeCluster" -> describeCluster(admin, args);
            case "describeMetadataQuorum" -> quorum(AdminPeer.await(admin.describeMetadataQuorum().quorumInfo()));
            case "describeFeatures" -> features(AdminPeer.await(admin.describeFeatures().featureMetadata()));
            case "updateFeatures" -> updateFeatures(admin, args);
            case "listTopics" -> new ArrayList<>(new TreeMap<>(AdminPeer.await(
                    admin.listTopics(new ListTopicsOptions().listInternal(flag(args, "internal"))).namesToListings()))
                    .keySet());
            case "createTopics" -> createTopics(admin, args);
            case "deleteTopics" -> perKey(admin.deleteTopics(TopicCollection.ofTopicNames(strings(args, "names")))
                    .topicNameValues(), v -> null);
            case "describeTopics" -> describeTopics(admin, args);
            case "describeTopicsById" -> describeTopicsById(admin, args);
            case "deleteTopicsById" -> perKey(admin.deleteTopics(TopicCollection.ofTopicIds(uuids(args, "ids")))
                    .topicIdValues(), v -> null);
            case "createPartitions" -> createPartitions(admin, args);
            case "describeConfigs" -> describeConfigs(admin, args);
            case "incrementalAlterConfigs" -> incrementalAlterConfigs(admin, args);
            case "alterConfigs" -> alterConfigs(admin, args);
            case "createAcls" -> createAcls(admin, args);
            case "describeAcls" -> bindings(AdminPeer.await(admin.describeAcls(filter(map(args, "filter"))).values()));
            case "deleteAcls" -> deleteAcls(admin, args);
            case "describeLogDirs" -> describeLogDirs(admin, args);
            case "describeReplicaLogDirs" -> describeReplicaLogDirs(admin, args);
            case "alterReplicaLogDirs" -> alterReplicaLogDirs(admin, args);
            case "alterPartitionReassignments" -> alterReassignments(admin, args);
            case "listPartitionReassignments" -> listReassignments(admin, args);
            case "electLeaders" -> electLeaders(admin, args);
            case "describeUserScramCredentials" -> describeScram(admin, args);
            case "alterUserScramCredentials" -> alterScram(admin, args);
            case "describeClientQuotas" -> describeQuotas(admin, args);
            case "alterClientQuotas" -> alterQuotas(admin, args);
            case "listConsumerGroups" -> listGroups(admin);
            case "unregisterBroker" -> {
                AdminPeer.await(admin.unregisterBroker(num(args, "broker")).all());
                yield null;
            }
            case "addRaftVoter" -> {
                Set<RaftVoterEndpoint> endpoints = new HashSet<>();
                for (Map<String, Object> e : maps(args, "endpoints")) {
                    endpoints.add(new RaftVoterEndpoint((String) e.get("name"), (String) e.get("host"), num(e, "port")));
                }
                AdminPeer.await(admin.addRaftVoter(num(args, "voter"), Uuid.fromString((String) args.get("directoryId")),
                        endpoints).all());
                yield null;
            }
            case "removeRaftVoter" -> {
                AdminPeer.await(admin.removeRaftVoter(num(args, "voter"),
                        Uuid.fromString((String) args.get("directoryId"))).all());
                yield null;
            }
            default -> GroupOps.run(admin, op, args);
        };
    }

    // ------------------------------------------------------------------ argument helpers

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> args, String key) {
        return (Map<String, Object>) args.get(key);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Map<String, Object> args, String key) {
        Object value = args.get(key);
        return value == null ? List.of() : (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    static List<String> strings(Map<String, Object> args, String key) {
        return (List<String>) args.get(key);
    }

    static int num(Map<String, Object> args, String key) {
        return ((Number) args.get(key)).intValue();
    }

    static boolean flag(Map<String, Object> args, String key) {
        return Boolean.TRUE.equals(args.get(key));
    }

    @SuppressWarnings("unchecked")
    static List<Integer> ints(Object value) {
        List<Integer> out = new ArrayList<>();
        for (Object each : (List<Object>) value) {
            out.add(((Number) each).intValue());
        }
        return out;
    }

    static TopicPartition partition(Map<String, Object> tp) {
        return new TopicPartition((String) tp.get("topic"), num(tp, "partition"));
    }

    static Set<TopicPartition> partitions(Map<String, Object> args, String key) {
        if (args.get(key) == null) {
            return null;
        }
        Set<TopicPartition> out = new HashSet<>();
        for (Map<String, Object> tp : maps(args, key)) {
            out.add(partition(tp));
        }
        return out;
    }

    static <K, T> Map<String, Object> perKey(Map<K, KafkaFuture<T>> futures, java.util.function.Function<T, Object> convert) {
        Map<String, Object> out = new TreeMap<>();
        futures.forEach((key, future) -> out.put(String.valueOf(key), AdminPeer.settle(future, convert)));
        return out;
    }

    // ------------------------------------------------------------------ conversions

    static Object node(Node node) {
        if (node == null || node.isEmpty()) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", node.id());
        out.put("host", node.host());
        out.put("port", node.port());
        out.put("rack", node.rack());
        return out;
    }

    static List<Object> ids(List<Node> nodes) {
        List<Object> out = new ArrayList<>();
        for (Node n : nodes) {
            out.add(n.id());
        }
        return out;
    }

    static Object operations(Set<AclOperation> operations) {
        if (operations == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (AclOperation each : operations) {
            out.add(each.name());
        }
        out.sort(null);
        return out;
    }

    static Object topic(TopicDescription d) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", d.name());
        out.put("topicId", d.topicId().toString());
        out.put("internal", d.isInternal());
        List<Object> parts = new ArrayList<>();
        for (TopicPartitionInfo p : d.partitions()) {
            Map<String, Object> part = new LinkedHashMap<>();
            part.put("partition", p.partition());
            part.put("leader", p.leader() == null ? null : p.leader().id());
            part.put("replicas", ids(p.replicas()));
            part.put("isr", ids(p.isr()));
            part.put("elr", p.elr() == null ? null : ids(p.elr()));
            part.put("lastKnownElr", p.lastKnownElr() == null ? null : ids(p.lastKnownElr()));
            parts.add(part);
        }
        out.put("partitions", parts);
        out.put("authorizedOperations", operations(d.authorizedOperations()));
        return out;
    }

    static Object entry(ConfigEntry e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", e.name());
        out.put("value", e.value());
        out.put("source", e.source().name());
        out.put("sensitive", e.isSensitive());
        out.put("readOnly", e.isReadOnly());
        out.put("type", e.type() == null ? null : e.type().name()); // CreateTopics answers carry no type
        out.put("documentation", e.documentation());
        List<Object> synonyms = new ArrayList<>();
        for (ConfigEntry.ConfigSynonym s : e.synonyms()) {
            Map<String, Object> syn = new LinkedHashMap<>();
            syn.put("name", s.name());
            syn.put("value", s.value());
            syn.put("source", s.source().name());
            synonyms.add(syn);
        }
        out.put("synonyms", synonyms);
        return out;
    }

    static Object config(Config config) {
        List<Object> out = new ArrayList<>();
        for (ConfigEntry e : config.entries()) {
            out.add(entry(e));
        }
        return out;
    }

    static Object replica(QuorumInfo.ReplicaState r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaId", r.replicaId());
        out.put("replicaDirectoryId", r.replicaDirectoryId().toString());
        out.put("logEndOffset", r.logEndOffset());
        out.put("lastFetchTimestamp", r.lastFetchTimestamp().isPresent() ? r.lastFetchTimestamp().getAsLong() : null);
        out.put("lastCaughtUpTimestamp",
                r.lastCaughtUpTimestamp().isPresent() ? r.lastCaughtUpTimestamp().getAsLong() : null);
        return out;
    }

    static Object quorum(QuorumInfo q) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("leaderId", q.leaderId());
        out.put("leaderEpoch", q.leaderEpoch());
        out.put("highWatermark", q.highWatermark());
        List<Object> voters = new ArrayList<>();
        q.voters().forEach(r -> voters.add(replica(r)));
        out.put("voters", voters);
        List<Object> observers = new ArrayList<>();
        q.observers().forEach(r -> observers.add(replica(r)));
        out.put("observers", observers);
        Map<String, Object> nodes = new TreeMap<>();
        q.nodes().forEach((id, n) -> {
            List<Object> endpoints = new ArrayList<>();
            for (RaftVoterEndpoint e : n.endpoints()) {
                endpoints.add(Map.of("name", e.name(), "host", e.host(), "port", e.port()));
            }
            nodes.put(String.valueOf(id), endpoints);
        });
        out.put("nodes", nodes);
        return out;
    }

    static Object features(FeatureMetadata f) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> finalized = new TreeMap<>();
        f.finalizedFeatures().forEach((k, v) -> finalized.put(k, Map.of("min", v.minVersionLevel(), "max", v.maxVersionLevel())));
        Map<String, Object> supported = new TreeMap<>();
        f.supportedFeatures().forEach((k, v) -> supported.put(k, Map.of("min", v.minVersion(), "max", v.maxVersion())));
        out.put("finalized", finalized);
        out.put("finalizedEpoch", f.finalizedFeaturesEpoch().orElse(null));
        out.put("supported", supported);
        return out;
    }

    static Object binding(AclBinding b) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("resourceType", b.pattern().resourceType().name());
        out.put("name", b.pattern().name());
        out.put("patternType", b.pattern().patternType().name());
        out.put("principal", b.entry().principal());
        out.put("host", b.entry().host());
        out.put("operation", b.entry().operation().name());
        out.put("permission", b.entry().permissionType().name());
        return out;
    }

    static Object bindings(Collection<AclBinding> all) {
        List<Object> out = new ArrayList<>();
        for (AclBinding b : all) {
            out.add(binding(b));
        }
        return out;
    }

    static AclBinding aclBinding(Map<String, Object> b) {
        return new AclBinding(
                new ResourcePattern(ResourceType.fromString((String) b.get("resourceType")), (String) b.get("name"),
                        PatternType.fromString((String) b.getOrDefault("patternType", "LITERAL"))),
                new AccessControlEntry((String) b.get("principal"), (String) b.getOrDefault("host", "*"),
                        AclOperation.fromString((String) b.get("operation")),
                        AclPermissionType.fromString((String) b.getOrDefault("permission", "ALLOW"))));
    }

    static AclBindingFilter filter(Map<String, Object> f) {
        if (f == null) {
            return AclBindingFilter.ANY;
        }
        return new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.fromString((String) f.getOrDefault("resourceType", "ANY")),
                        (String) f.get("name"), PatternType.fromString((String) f.getOrDefault("patternType", "ANY"))),
                new AccessControlEntryFilter((String) f.get("principal"), (String) f.get("host"),
                        AclOperation.fromString((String) f.getOrDefault("operation", "ANY")),
                        AclPermissionType.fromString((String) f.getOrDefault("permission", "ANY"))));
    }

    static ConfigResource resource(Map<String, Object> r) {
        return new ConfigResource(ConfigResource.Type.valueOf((String) r.get("type")), (String) r.get("name"));
    }

    static String key(ConfigResource r) {
        return r.type().name() + ":" + r.name();
    }

    // ------------------------------------------------------------------ calls

    static Object describeCluster(Admin admin, Map<String, Object> args) throws Exception {
        DescribeClusterResult r = admin.describeCluster(
                new DescribeClusterOptions().includeAuthorizedOperations(flag(args, "authorizedOperations")));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("clusterId", AdminPeer.await(r.clusterId()));
        out.put("controller", node(AdminPeer.await(r.controller())));
        List<Object> nodes = new ArrayList<>();
        for (Node n : AdminPeer.await(r.nodes())) {
            nodes.add(node(n));
        }
        nodes.sort((a, b) -> Integer.compare((Integer) ((Map<?, ?>) a).get("id"), (Integer) ((Map<?, ?>) b).get("id")));
        out.put("nodes", nodes);
        out.put("authorizedOperations", operations(AdminPeer.await(r.authorizedOperations())));
        return out;
    }

    static Object updateFeatures(Admin admin, Map<String, Object> args) {
        Map<String, FeatureUpdate> updates = new LinkedHashMap<>();
        map(args, "updates").forEach((name, value) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> u = (Map<String, Object>) value;
            updates.put(name, new FeatureUpdate((short) num(u, "level"),
                    FeatureUpdate.UpgradeType.valueOf((String) u.getOrDefault("type", "UPGRADE"))));
        });
        return perKey(admin.updateFeatures(updates, new UpdateFeaturesOptions().validateOnly(flag(args, "validateOnly")))
                .values(), v -> null);
    }

    static Object createTopics(Admin admin, Map<String, Object> args) {
        List<NewTopic> topics = new ArrayList<>();
        for (Map<String, Object> t : maps(args, "topics")) {
            NewTopic topic;
            if (t.get("assignments") != null) {
                Map<Integer, List<Integer>> assignments = new LinkedHashMap<>();
                List<?> given = (List<?>) t.get("assignments");
                for (int p = 0; p < given.size(); p++) {
                    assignments.put(p, ints(given.get(p)));
                }
                topic = new NewTopic((String) t.get("name"), assignments);
            } else {
                topic = new NewTopic((String) t.get("name"),
                        Optional.ofNullable(t.get("partitions")).map(v -> ((Number) v).intValue()),
                        Optional.ofNullable(t.get("replicationFactor")).map(v -> ((Number) v).shortValue()));
            }
            @SuppressWarnings("unchecked")
            Map<String, String> configs = (Map<String, String>) t.get("configs");
            if (configs != null) {
                topic.configs(configs);
            }
            topics.add(topic);
        }
        CreateTopicsResult r = admin.createTopics(topics, new CreateTopicsOptions().validateOnly(flag(args, "validateOnly")));
        Map<String, Object> out = new TreeMap<>();
        for (NewTopic t : topics) {
            String name = t.name();
            out.put(name, AdminPeer.settle(r.values().get(name), v -> {
                Map<String, Object> created = new LinkedHashMap<>();
                created.put("topicId", AdminPeer.settle(r.topicId(name), Uuid::toString));
                created.put("numPartitions", AdminPeer.settle(r.numPartitions(name), n -> n));
                created.put("replicationFactor", AdminPeer.settle(r.replicationFactor(name), n -> n));
                created.put("config", AdminPeer.settle(r.config(name), Ops::config));
                return created;
            }));
        }
        return out;
    }

    static Object describeTopics(Admin admin, Map<String, Object> args) {
        DescribeTopicsOptions options = new DescribeTopicsOptions()
                .includeAuthorizedOperations(flag(args, "authorizedOperations"));
        if (args.get("partitionLimit") != null) {
            options.partitionSizeLimitPerResponse(num(args, "partitionLimit")); // DescribeTopicPartitions paging
        }
        return perKey(admin.describeTopics(TopicCollection.ofTopicNames(strings(args, "names")), options)
                .topicNameValues(), Ops::topic);
    }

    static List<Uuid> uuids(Map<String, Object> args, String key) {
        List<Uuid> ids = new ArrayList<>();
        for (String id : strings(args, key)) {
            ids.add(Uuid.fromString(id));
        }
        return ids;
    }

    static Object describeTopicsById(Admin admin, Map<String, Object> args) {
        return perKey(admin.describeTopics(TopicCollection.ofTopicIds(uuids(args, "ids"))).topicIdValues(), Ops::topic);
    }

    static Object createPartitions(Admin admin, Map<String, Object> args) {
        Map<String, NewPartitions> wanted = new LinkedHashMap<>();
        map(args, "topics").forEach((name, value) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> p = (Map<String, Object>) value;
            List<List<Integer>> assignments = null;
            if (p.get("assignments") != null) {
                assignments = new ArrayList<>();
                for (Object each : (List<?>) p.get("assignments")) {
                    assignments.add(ints(each));
                }
            }
            wanted.put(name, NewPartitions.increaseTo(num(p, "count"), assignments));
        });
        return perKey(admin.createPartitions(wanted, new CreatePartitionsOptions().validateOnly(flag(args, "validateOnly")))
                .values(), v -> null);
    }

    static Object describeConfigs(Admin admin, Map<String, Object> args) {
        List<ConfigResource> resources = new ArrayList<>();
        for (Map<String, Object> r : maps(args, "resources")) {
            resources.add(resource(r));
        }
        DescribeConfigsOptions options = new DescribeConfigsOptions().includeSynonyms(!Boolean.FALSE.equals(args.get("synonyms")))
                .includeDocumentation(flag(args, "documentation"));
        Map<String, Object> out = new TreeMap<>();
        admin.describeConfigs(resources, options).values()
                .forEach((r, future) -> out.put(key(r), AdminPeer.settle(future, Ops::config)));
        return out;
    }

    static Object incrementalAlterConfigs(Admin admin, Map<String, Object> args) {
        Map<ConfigResource, Collection<AlterConfigOp>> wanted = new LinkedHashMap<>();
        for (Map<String, Object> r : maps(args, "resources")) {
            List<AlterConfigOp> ops = new ArrayList<>();
            for (Map<String, Object> o : maps(r, "ops")) {
                ops.add(new AlterConfigOp(new ConfigEntry((String) o.get("name"), (String) o.get("value")),
                        AlterConfigOp.OpType.valueOf((String) o.getOrDefault("op", "SET"))));
            }
            wanted.put(resource(r), ops);
        }
        Map<String, Object> out = new TreeMap<>();
        admin.incrementalAlterConfigs(wanted, new AlterConfigsOptions().validateOnly(flag(args, "validateOnly"))).values()
                .forEach((r, future) -> out.put(key(r), AdminPeer.settle(future, v -> null)));
        return out;
    }

    @SuppressWarnings("deprecation")
    static Object alterConfigs(Admin admin, Map<String, Object> args) {
        Map<ConfigResource, Config> wanted = new LinkedHashMap<>();
        for (Map<String, Object> r : maps(args, "resources")) {
            List<ConfigEntry> entries = new ArrayList<>();
            map(r, "configs").forEach((k, v) -> entries.add(new ConfigEntry(k, (String) v)));
            wanted.put(resource(r), new Config(entries));
        }
        Map<String, Object> out = new TreeMap<>();
        admin.alterConfigs(wanted, new AlterConfigsOptions().validateOnly(flag(args, "validateOnly"))).values()
                .forEach((r, future) -> out.put(key(r), AdminPeer.settle(future, v -> null)));
        return out;
    }

    static Object createAcls(Admin admin, Map<String, Object> args) {
        List<AclBinding> wanted = new ArrayList<>();
        for (Map<String, Object> b : maps(args, "bindings")) {
            wanted.add(aclBinding(b));
        }
        Map<AclBinding, KafkaFuture<Void>> results = admin.createAcls(wanted).values();
        List<Object> out = new ArrayList<>();
        for (AclBinding b : wanted) {
            out.add(AdminPeer.settle(results.get(b), v -> null));
        }
        return out;
    }

    static Object deleteAcls(Admin admin, Map<String, Object> args) {
        List<AclBindingFilter> filters = new ArrayList<>();
        for (Map<String, Object> f : maps(args, "filters")) {
            filters.add(filter(f));
        }
        Map<AclBindingFilter, KafkaFuture<DeleteAclsResult.FilterResults>> results = admin.deleteAcls(filters).values();
        List<Object> out = new ArrayList<>();
        for (AclBindingFilter f : filters) {
            out.add(AdminPeer.settle(results.get(f), r -> {
                List<Object> deleted = new ArrayList<>();
                for (DeleteAclsResult.FilterResult each : r.values()) {
                    deleted.add(each.exception() != null ? Map.of("error", AdminPeer.error(each.exception()))
                            : Map.of("ok", binding(each.binding())));
                }
                return deleted;
            }));
        }
        return out;
    }

    static Object logDir(LogDirDescription d) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("error", d.error() == null ? null : AdminPeer.error(d.error()));
        out.put("totalBytes", d.totalBytes().isPresent() ? d.totalBytes().getAsLong() : null);
        out.put("usableBytes", d.usableBytes().isPresent() ? d.usableBytes().getAsLong() : null);
        Map<String, Object> replicas = new TreeMap<>();
        d.replicaInfos().forEach((tp, info) -> replicas.put(tp.toString(), replicaInfo(info)));
        out.put("replicas", replicas);
        return out;
    }

    static Object replicaInfo(ReplicaInfo info) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("size", info.size());
        out.put("offsetLag", info.offsetLag());
        out.put("isFuture", info.isFuture());
        return out;
    }

    static Object describeLogDirs(Admin admin, Map<String, Object> args) {
        return perKey(admin.describeLogDirs(ints(args.get("brokers"))).descriptions(), dirs -> {
            Map<String, Object> out = new TreeMap<>();
            dirs.forEach((path, d) -> out.put(path, logDir(d)));
            return out;
        });
    }

    static List<TopicPartitionReplica> replicas(Map<String, Object> args) {
        List<TopicPartitionReplica> out = new ArrayList<>();
        for (Map<String, Object> r : maps(args, "replicas")) {
            out.add(new TopicPartitionReplica((String) r.get("topic"), num(r, "partition"), num(r, "broker")));
        }
        return out;
    }

    static Object describeReplicaLogDirs(Admin admin, Map<String, Object> args) {
        return perKey(admin.describeReplicaLogDirs(replicas(args)).values(), (DescribeReplicaLogDirsResult.ReplicaLogDirInfo i) -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("currentDir", i.getCurrentReplicaLogDir());
            out.put("currentOffsetLag", i.getCurrentReplicaOffsetLag());
            out.put("futureDir", i.getFutureReplicaLogDir());
            out.put("futureOffsetLag", i.getFutureReplicaOffsetLag());
            return out;
        });
    }

    static Object alterReplicaLogDirs(Admin admin, Map<String, Object> args) {
        Map<TopicPartitionReplica, String> moves = new LinkedHashMap<>();
        for (Map<String, Object> r : maps(args, "replicas")) {
            moves.put(new TopicPartitionReplica((String) r.get("topic"), num(r, "partition"), num(r, "broker")),
                    (String) r.get("dir"));
        }
        return perKey(admin.alterReplicaLogDirs(moves).values(), v -> null);
    }

    static Object alterReassignments(Admin admin, Map<String, Object> args) {
        Map<TopicPartition, Optional<NewPartitionReassignment>> wanted = new LinkedHashMap<>();
        for (Map<String, Object> r : maps(args, "reassignments")) {
            wanted.put(partition(r), r.get("replicas") == null ? Optional.empty()
                    : Optional.of(new NewPartitionReassignment(ints(r.get("replicas")))));
        }
        return perKey(admin.alterPartitionReassignments(wanted).values(), v -> null);
    }

    static Object listReassignments(Admin admin, Map<String, Object> args) throws Exception {
        Set<TopicPartition> only = partitions(args, "partitions");
        Map<TopicPartition, PartitionReassignment> found = AdminPeer.await(
                (only == null ? admin.listPartitionReassignments() : admin.listPartitionReassignments(only)).reassignments());
        Map<String, Object> out = new TreeMap<>();
        found.forEach((tp, r) -> out.put(tp.toString(),
                Map.of("replicas", r.replicas(), "adding", r.addingReplicas(), "removing", r.removingReplicas())));
        return out;
    }

    static Object electLeaders(Admin admin, Map<String, Object> args) throws Exception {
        Map<TopicPartition, Optional<Throwable>> result = AdminPeer.await(admin.electLeaders(
                ElectionType.valueOf((String) args.getOrDefault("type", "PREFERRED")), partitions(args, "partitions"))
                .partitions());
        Map<String, Object> out = new TreeMap<>();
        result.forEach((tp, error) -> out.put(tp.toString(),
                error.isPresent() ? Map.of("error", AdminPeer.error(error.get())) : Map.of("ok", "elected")));
        return out;
    }

    static Object scram(UserScramCredentialsDescription d) {
        List<Object> out = new ArrayList<>();
        for (ScramCredentialInfo info : d.credentialInfos()) {
            out.add(Map.of("mechanism", info.mechanism().mechanismName(), "iterations", info.iterations()));
        }
        out.sort((a, b) -> ((String) ((Map<?, ?>) a).get("mechanism")).compareTo((String) ((Map<?, ?>) b).get("mechanism")));
        return out;
    }

    static Object describeScram(Admin admin, Map<String, Object> args) throws Exception {
        DescribeUserScramCredentialsResult r = admin.describeUserScramCredentials(strings(args, "users"));
        Map<String, Object> out = new TreeMap<>();
        for (String user : AdminPeer.await(r.users())) {
            out.put(user, AdminPeer.settle(r.description(user), Ops::scram));
        }
        if (args.get("users") != null) {
            for (String user : strings(args, "users")) {
                out.computeIfAbsent(user, u -> AdminPeer.settle(r.description(u), Ops::scram));
            }
        }
        return out;
    }

    static Object alterScram(Admin admin, Map<String, Object> args) {
        List<UserScramCredentialAlteration> changes = new ArrayList<>();
        for (Map<String, Object> u : maps(args, "upserts")) {
            changes.add(new UserScramCredentialUpsertion((String) u.get("user"),
                    new ScramCredentialInfo(ScramMechanism.fromMechanismName((String) u.get("mechanism")), num(u, "iterations")),
                    (String) u.get("password")));
        }
        for (Map<String, Object> d : maps(args, "deletions")) {
            changes.add(new UserScramCredentialDeletion((String) d.get("user"),
                    ScramMechanism.fromMechanismName((String) d.get("mechanism"))));
        }
        return perKey(admin.alterUserScramCredentials(changes).values(), v -> null);
    }

    static Object describeQuotas(Admin admin, Map<String, Object> args) throws Exception {
        List<ClientQuotaFilterComponent> components = new ArrayList<>();
        for (Map<String, Object> c : maps(args, "components")) {
            String type = (String) c.get("entityType");
            if (flag(c, "default")) {
                components.add(ClientQuotaFilterComponent.ofDefaultEntity(type));
            } else if (c.get("name") != null) {
                components.add(ClientQuotaFilterComponent.ofEntity(type, (String) c.get("name")));
            } else {
                components.add(ClientQuotaFilterComponent.ofEntityType(type));
            }
        }
        ClientQuotaFilter filter = flag(args, "strict") ? ClientQuotaFilter.containsOnly(components)
                : ClientQuotaFilter.contains(components);
        Map<ClientQuotaEntity, Map<String, Double>> found = AdminPeer.await(admin.describeClientQuotas(filter).entities());
        List<Object> out = new ArrayList<>();
        found.forEach((entity, values) -> {
            Map<String, Object> each = new LinkedHashMap<>();
            each.put("entity", new TreeMap<>(entity.entries()));
            each.put("values", new TreeMap<>(values));
            out.add(each);
        });
        out.sort((a, b) -> ((Map<?, ?>) a).get("entity").toString().compareTo(((Map<?, ?>) b).get("entity").toString()));
        return out;
    }

    static Object alterQuotas(Admin admin, Map<String, Object> args) {
        List<ClientQuotaAlteration> changes = new ArrayList<>();
        for (Map<String, Object> a : maps(args, "alterations")) {
            Map<String, String> entity = new LinkedHashMap<>();
            map(a, "entity").forEach((k, v) -> entity.put(k, (String) v));
            List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
            map(a, "values").forEach((k, v) -> ops.add(new ClientQuotaAlteration.Op(k,
                    v == null ? null : ((Number) v).doubleValue())));
            changes.add(new ClientQuotaAlteration(new ClientQuotaEntity(entity), ops));
        }
        return perKey(admin.alterClientQuotas(changes).values(), v -> null);
    }

    static Object listGroups(Admin admin) throws Exception {
        List<Object> out = new ArrayList<>();
        AdminPeer.await(admin.listConsumerGroups().all()).forEach(g -> {
            Map<String, Object> each = new LinkedHashMap<>();
            each.put("groupId", g.groupId());
            each.put("simple", g.isSimpleConsumerGroup());
            each.put("state", g.state().map(Enum::name).orElse(null));
            out.add(each);
        });
        return out;
    }
}
