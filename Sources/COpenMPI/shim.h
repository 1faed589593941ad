// COpenMPI: Open MPI's C API (Debian packages openmpi-bin and libopenmpi-dev), loaded at run time.
//
// The header gives the real types and signatures; the library is opened with dlopen only when
// `screenlab train` runs under mpirun, so a plain `screenlab` (and every test binary) neither
// links libmpi nor needs it installed. No `link "mpi"` here for that reason: the functions are
// called through the pointers `screenlab_mpi_load` resolves, typed by the header's declarations,
// and the predefined handles (MPI_COMM_WORLD, MPI_FLOAT, ...), which Open MPI's macros take as the
// addresses of its global objects, are resolved by those objects' names.
#ifndef SCREENLAB_COPENMPI_SHIM_H
#define SCREENLAB_COPENMPI_SHIM_H
#if __has_include(<openmpi/mpi.h>)
#include <openmpi/mpi.h>
#else
#error "ScreenLab needs Open MPI's mpi.h from the Debian package libopenmpi-dev: run 'sudo apt-get install -y openmpi-bin libopenmpi-dev' (or Scripts/install-and-run)."
#endif
#include <dlfcn.h>
#include <stddef.h>

typedef struct {
    __typeof__(MPI_Init_thread) *init_thread;
    __typeof__(MPI_Initialized) *initialized;
    __typeof__(MPI_Finalize) *finalize;
    __typeof__(MPI_Abort) *abort;
    __typeof__(MPI_Comm_rank) *comm_rank;
    __typeof__(MPI_Comm_size) *comm_size;
    __typeof__(MPI_Comm_set_errhandler) *comm_set_errhandler;
    __typeof__(MPI_Get_processor_name) *get_processor_name;
    __typeof__(MPI_Get_library_version) *get_library_version;
    __typeof__(MPI_Error_string) *error_string;
    __typeof__(MPI_Barrier) *barrier;
    __typeof__(MPI_Bcast) *bcast;
    __typeof__(MPI_Allgather) *allgather;
    __typeof__(MPI_Allgatherv) *allgatherv;
    __typeof__(MPI_Alltoallv) *alltoallv;
    __typeof__(MPI_Ibarrier) *ibarrier;
    __typeof__(MPI_Test) *test;
    MPI_Comm comm_world;
    MPI_Datatype type_byte, type_float, type_double, type_long_long;
    MPI_Errhandler errors_return;
} screenlab_mpi;

/// Opens `library` (RTLD_GLOBAL: Open MPI's own plug-ins resolve symbols against it) and fills
/// `mpi`. Returns NULL, or the name of what was missing / dlerror's text.
static inline const char *screenlab_mpi_load(const char *library, screenlab_mpi *mpi) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL);
    if (handle == NULL) return dlerror();
#define SCREENLAB_MPI_RESOLVE(field, name) \
    if ((*(void **)&mpi->field = dlsym(handle, name)) == NULL) return name;
    SCREENLAB_MPI_RESOLVE(init_thread, "MPI_Init_thread")
    SCREENLAB_MPI_RESOLVE(initialized, "MPI_Initialized")
    SCREENLAB_MPI_RESOLVE(finalize, "MPI_Finalize")
    SCREENLAB_MPI_RESOLVE(abort, "MPI_Abort")
    SCREENLAB_MPI_RESOLVE(comm_rank, "MPI_Comm_rank")
    SCREENLAB_MPI_RESOLVE(comm_size, "MPI_Comm_size")
    SCREENLAB_MPI_RESOLVE(comm_set_errhandler, "MPI_Comm_set_errhandler")
    SCREENLAB_MPI_RESOLVE(get_processor_name, "MPI_Get_processor_name")
    SCREENLAB_MPI_RESOLVE(get_library_version, "MPI_Get_library_version")
    SCREENLAB_MPI_RESOLVE(error_string, "MPI_Error_string")
    SCREENLAB_MPI_RESOLVE(barrier, "MPI_Barrier")
    SCREENLAB_MPI_RESOLVE(bcast, "MPI_Bcast")
    SCREENLAB_MPI_RESOLVE(allgather, "MPI_Allgather")
    SCREENLAB_MPI_RESOLVE(allgatherv, "MPI_Allgatherv")
    SCREENLAB_MPI_RESOLVE(alltoallv, "MPI_Alltoallv")
    SCREENLAB_MPI_RESOLVE(ibarrier, "MPI_Ibarrier")
    SCREENLAB_MPI_RESOLVE(test, "MPI_Test")
    // Open MPI's predefined handles are the addresses of these objects (OMPI_PREDEFINED_GLOBAL).
    SCREENLAB_MPI_RESOLVE(comm_world, "ompi_mpi_comm_world")
    SCREENLAB_MPI_RESOLVE(type_byte, "ompi_mpi_byte")
    SCREENLAB_MPI_RESOLVE(type_float, "ompi_mpi_float")
    SCREENLAB_MPI_RESOLVE(type_double, "ompi_mpi_double")
    SCREENLAB_MPI_RESOLVE(type_long_long, "ompi_mpi_long_long_int")
    SCREENLAB_MPI_RESOLVE(errors_return, "ompi_mpi_errors_return")
#undef SCREENLAB_MPI_RESOLVE
    return NULL;
}

static inline void *screenlab_mpi_in_place(void) { return MPI_IN_PLACE; }
static inline int screenlab_mpi_thread_serialized(void) { return MPI_THREAD_SERIALIZED; }
static inline int screenlab_mpi_max_processor_name(void) { return MPI_MAX_PROCESSOR_NAME; }
static inline int screenlab_mpi_max_library_version_string(void) { return MPI_MAX_LIBRARY_VERSION_STRING; }
static inline int screenlab_mpi_max_error_string(void) { return MPI_MAX_ERROR_STRING; }
#endif
