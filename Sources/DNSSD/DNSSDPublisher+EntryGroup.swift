import CAvahi

/// Advertising one registration as one Avahi entry group, and moving it to the next free name on a
/// collision. Every method here runs on the threaded poll's thread or with its lock held.
extension DNSSDPublisher {
    /// Adds every service of a registration to its entry group (created on first use) and commits it.
    /// A name already taken on this host (AVAHI_ERR_COLLISION at once) moves to the next free name.
    func register(_ id: DNSSDRegistrationID, client: OpaquePointer) {
        guard var entry = state.withLock({ $0.entries[id] }) else { return }
        let group: OpaquePointer
        if let existing = entry.group {
            group = existing.pointer
        } else {
            let callback: AvahiEntryGroupCallback = { group, groupState, context in
                DNSSDPublisher.from(context)?.groupChanged(group, groupState)
            }
            guard let created = avahi_entry_group_new(client, callback, context) else {
                emit(.failed(message: "creating an entry group: \(Self.describe(avahi_client_errno(client)))"))
                return
            }
            group = created
            state.withLock { $0.entries[id]?.group = AvahiHandle(created) }
        }
        while true {
            if avahi_entry_group_is_empty(group) == 0 {
                avahi_entry_group_reset(group)
            }
            let result = add(entry.registration, to: group)
            if result == Int32(AVAHI_ERR_COLLISION) {
                guard let name = rename(id) else { return }
                entry.registration.name = name
                continue
            }
            let committed = result < 0 ? result : avahi_entry_group_commit(group)
            if committed < 0 {
                emit(.failed(message: "advertising \(entry.registration.name): \(Self.describe(committed))"))
            }
            return
        }
    }

    /// Follows an entry group's state: established is reported, a collision (with another host, or a
    /// process that was first on this one) moves the registration to the next free name.
    func groupChanged(_ group: OpaquePointer?, _ groupState: AvahiEntryGroupState) {
        guard let id = state.withLock({ $0.id(of: group) }) else { return }
        switch groupState {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            if let name = state.withLock({ $0.entries[id]?.registration.name }) {
                emit(.registered(id: id, name: name))
            }
        case AVAHI_ENTRY_GROUP_COLLISION:
            if rename(id) != nil, let client = state.withLock({ $0.runningClient }) {
                register(id, client: client.pointer)
            }
        case AVAHI_ENTRY_GROUP_FAILURE:
            let error = avahi_client_errno(avahi_entry_group_get_client(group))
            emit(.failed(message: "advertising a registration: \(Self.describe(error))"))
        default:
            break
        }
    }

    /// Moves a registration to its next name (`Name (2)`, ...), reports it, and returns the new name; nil
    /// (and a failure event) after ``maximumRenames`` renames.
    private func rename(_ id: DNSSDRegistrationID) -> String? {
        let names: (from: String, to: String)? = state.withLock { state in
            guard var entry = state.entries[id], entry.renames < Self.maximumRenames else { return nil }
            let from = entry.registration.name
            entry.registration.name = ServiceName.alternative(to: from)
            entry.renames += 1
            state.entries[id] = entry
            return (from, entry.registration.name)
        }
        guard let names else {
            emit(.failed(message: "no free name after \(Self.maximumRenames) tries"))
            return nil
        }
        emit(.renamed(id: id, from: names.from, to: names.to))
        return names.to
    }

    /// Adds each service and its subtypes to `group`; returns the first Avahi error, or 0.
    private func add(_ registration: DNSSDRegistration, to group: OpaquePointer) -> Int32 {
        let interface = AvahiIfIndex(AVAHI_IF_UNSPEC)
        let proto = AvahiProtocol(AVAHI_PROTO_UNSPEC)
        let flags = AvahiPublishFlags(0)
        for service in registration.services {
            let list = TXTStringList.make(service.txt)
            let added = avahi_entry_group_add_service_strlst(
                group, interface, proto, flags, registration.name, service.type, nil, nil, service.port, list)
            avahi_string_list_free(list)
            guard added >= 0 else { return added }
            for subtype in service.subtypes {
                let result = avahi_entry_group_add_service_subtype(
                    group, interface, proto, flags, registration.name, service.type, nil,
                    "\(subtype)._sub.\(service.type)")
                guard result >= 0 else { return result }
            }
        }
        return 0
    }
}
