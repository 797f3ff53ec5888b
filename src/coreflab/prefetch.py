"""`prefetch(arr, i)`, `prefetch_write(arr, i)`: ask the CPU to start loading the cache line of arr[i] (its first element for
a 2-D array), from inside a numba kernel.

Kernels over hashed feature columns gather weights from arrays far larger than the caches, in an
order no hardware prefetcher can guess, but they know a few dozen entries ahead which columns they
will read: issuing the load early (llvm.prefetch; a hint, never a fault, no effect on the results)
hides most of the miss (bench/results/pair_kernel.json). Only compiled code can call it.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _prefetch_intrinsic(write):
    """An intrinsic prefetching &arr[i, 0, ...] into every cache level, for reading or for writing."""

    def typer(typingctx, arr, i):
        if not isinstance(arr, types.Array) or not isinstance(i, types.Integer):
            return None
        sig = types.void(arr, i)

        def codegen(context, builder, signature, args):
            aryty, ity = signature.args
            ary = context.make_array(aryty)(context, builder, args[0])
            index = context.cast(builder, args[1], ity, types.intp)
            zero = context.get_constant(types.intp, 0)
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [index] + [zero] * (aryty.ndim - 1))
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
            # (address, read 0 / write 1, locality 3 = keep in all levels, data cache = 1)
            rw = ir.Constant(i32, int(write))
            builder.call(fn, [builder.bitcast(ptr, i8p), rw, ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return sig, codegen

    typer.__name__ = "prefetch_write" if write else "prefetch"
    return intrinsic(typer)


prefetch = _prefetch_intrinsic(write=False)
prefetch_write = _prefetch_intrinsic(write=True)  # the line will be written too (read-modify-write)
