// Unaligned SIMD loads and stores on Float pointers. Tensors are only 4-byte aligned, so
// every vector access goes through loadUnaligned / storeBytes.

@inline(__always)
func load8(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func load8(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func load16(_ pointer: UnsafePointer<Float>) -> SIMD16<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<Float>.self)
}

@inline(__always)
func load16(_ pointer: UnsafeMutablePointer<Float>) -> SIMD16<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<Float>.self)
}

@inline(__always)
func store8(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
}

@inline(__always)
func store16(_ value: SIMD16<Float>, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD16<Float>.self)
}

/// Loads `count` (< 8) floats into the low lanes, zeros elsewhere: the tail of a row.
@inline(__always)
func loadPartial8(_ pointer: UnsafePointer<Float>, count: Int) -> SIMD8<Float> {
    var v = SIMD8<Float>()
    for i in 0..<count { v[i] = pointer[i] }
    return v
}

@inline(__always)
func storePartial8(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>, count: Int) {
    for i in 0..<count { pointer[i] = value[i] }
}

/// Float scratch memory that lives for one kernel call (or one worker of it). Large ones come
/// from `BufferCache`: a step asks for the same scratch sizes every step, and from malloc each
/// was fresh, page-faulted memory again.
struct Workspace {
    let pointer: UnsafeMutablePointer<Float>
    let count: Int

    init(count: Int, zeroed: Bool = false) {
        self.count = max(count, 1)
        pointer = BufferCache.shared.allocate(bytes: self.count * MemoryLayout<Float>.stride)
            .bindMemory(to: Float.self, capacity: self.count)
        if zeroed { pointer.initialize(repeating: 0, count: self.count) }
    }

    func free() { BufferCache.shared.release(UnsafeMutableRawPointer(pointer), bytes: count * MemoryLayout<Float>.stride) }
}

/// Runs `body` with a scratch buffer of `count` floats that is freed afterwards.
@inline(__always)
func withWorkspace<R>(_ count: Int, zeroed: Bool = false, _ body: (UnsafeMutablePointer<Float>) throws -> R) rethrows -> R {
    let workspace = Workspace(count: count, zeroed: zeroed)
    defer { workspace.free() }
    return try body(workspace.pointer)
}
