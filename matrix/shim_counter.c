/* An LD_AUDIT library for one matrix cell: it counts the calls the cell's extension makes into each
 * C shim function of libtorch, and can replace one shim by a mutant for the mutation benchmark.
 *
 * Why the audit interface: the dynamic linker reports every binding from the audited extension to
 * libtorch (la_symbind64, also for the immediate binding that torch.ops.load_library asks for), and
 * lets us hand back another address. A shim the runtime lacks is never bound, so the loader still
 * refuses the extension exactly as without the counter. Each bound shim gets one slot of a pool of
 * trampolines that bump the slot's counter and jump on to the real function, whatever its signature.
 * The counters live in a file mapped shared, so they survive a crash of the cell.
 *
 * Environment (read once at start):
 *   TORCH_ABI_CHECK_SHIM_COUNTS      the counts file, kSlots records of {char name[120]; uint64 calls}
 *   TORCH_ABI_CHECK_AUDITED_LIBRARY  the extension whose bindings are counted (its real path)
 *   TORCH_ABI_CHECK_SHIM_MUTATION    optional "name=error" (the shim returns 1, AOTI_TORCH_FAILURE,
 *                                    without running) or "name=zero" (returns 0, success, without running)
 *   TORCH_ABI_CHECK_SHIM_PER_PROCESS "1": for a process that forks after `import torch` and loads an
 *                                    extension in each child (the matrix's and the mutation
 *                                    benchmark's cells, matrix/shim_counts.py): each child counts into
 *                                    "<counts file>.<pid>", audits the library named in
 *                                    "<counts file>.<pid>.library" (else TORCH_ABI_CHECK_AUDITED_LIBRARY)
 *                                    and reads its mutation from "<counts file>.<pid>.mutation"; the
 *                                    child writes these before it loads anything.
 * The counts file is opened when the extension is (la_objopen), in the process that loads it.
 * x86-64 only (the trampolines are x86-64 code); the matrix does not load it elsewhere. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kSlots = 2048, kNameSize = 120, kStubSize = 32 };
struct slot {
  char name[kNameSize];
  uint64_t calls;
};

__attribute__((visibility("hidden"))) uint64_t* abicheck_counter[kSlots];
__attribute__((visibility("hidden"))) uintptr_t abicheck_target[kSlots];
extern char abicheck_stubs[];

/* Slot i: counter[i] += 1 (atomically: kernels may call shims from several threads), then jump to
 * target[i] with every argument register untouched (r11 is scratch in the SysV ABI). */
__asm__(
    ".text\n.balign 32\n.globl abicheck_stubs\n.hidden abicheck_stubs\nabicheck_stubs:\n"
    ".set slot, 0\n.rept 2048\n"
    "  movq (abicheck_counter + slot*8)(%rip), %r11\n"
    "  lock incq (%r11)\n"
    "  jmpq *(abicheck_target + slot*8)(%rip)\n"
    "  .balign 32\n  .set slot, slot+1\n.endr\n");

static struct slot* slots;
static unsigned slots_used;
static char audited[PATH_MAX];
static char counts_path[PATH_MAX];
static int per_process;
static pid_t configured_pid; /* per process: the process whose own library `audited` names */
static char mutated_name[kNameSize];
static uintptr_t mutant;

static long mutant_error(void) { return 1; }
static long mutant_zero(void) { return 0; }

static void parse_mutation(const char* mutation) {
  const char* equals = mutation ? strchr(mutation, '=') : NULL;
  if (!equals || (size_t)(equals - mutation) >= kNameSize) return;
  memcpy(mutated_name, mutation, (size_t)(equals - mutation));
  if (strcmp(equals + 1, "error") == 0) mutant = (uintptr_t)&mutant_error;
  if (strcmp(equals + 1, "zero") == 0) mutant = (uintptr_t)&mutant_zero;
}

/* Maps the counts file of this process; 0 when it cannot (nothing is counted then). */
static int open_counts(void) {
  char path[PATH_MAX + 32];
  char mutation[kNameSize + 16] = {0};
  if (per_process) {
    snprintf(path, sizeof path, "%s.%ld.mutation", counts_path, (long)getpid());
    int mutation_fd = open(path, O_RDONLY | O_CLOEXEC);
    if (mutation_fd >= 0) {
      ssize_t length = read(mutation_fd, mutation, sizeof mutation - 1);
      close(mutation_fd);
      if (length > 0) {
        mutation[length] = '\0';
        mutation[strcspn(mutation, "\n")] = '\0';
        parse_mutation(mutation);
      }
    }
    snprintf(path, sizeof path, "%s.%ld", counts_path, (long)getpid());
  } else {
    snprintf(path, sizeof path, "%s", counts_path);
    parse_mutation(getenv("TORCH_ABI_CHECK_SHIM_MUTATION"));
  }
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return 0;
  if (ftruncate(fd, (off_t)(sizeof(struct slot) * kSlots)) != 0) {
    close(fd);
    return 0;
  }
  void* mapped = mmap(NULL, sizeof(struct slot) * kSlots, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (mapped == MAP_FAILED) return 0;
  slots = mapped;
  return 1;
}

/* Per process: the library this process audits, from "<counts file>.<pid>.library" when its cell
 * wrote one (a forked child of a server that runs many extensions), read once per process. */
static void configure_process(void) {
  pid_t pid = getpid();
  if (!per_process || configured_pid == pid) return;
  configured_pid = pid;
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s.%ld.library", counts_path, (long)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char library[PATH_MAX] = {0};
  ssize_t length = read(fd, library, sizeof library - 1);
  close(fd);
  if (length <= 0) return;
  library[length] = '\0';
  library[strcspn(library, "\n")] = '\0';
  if (!realpath(library, audited)) audited[0] = '\0';
}

unsigned la_version(unsigned version) {
  const char* counts = getenv("TORCH_ABI_CHECK_SHIM_COUNTS");
  const char* library = getenv("TORCH_ABI_CHECK_AUDITED_LIBRARY");
  const char* per_process_flag = getenv("TORCH_ABI_CHECK_SHIM_PER_PROCESS");
  per_process = per_process_flag && strcmp(per_process_flag, "1") == 0;
  /* 0: the loader drops this audit. One process audits the library its environment names; a server
   * of forked cells may leave that to each child. */
  if (!counts || strlen(counts) >= sizeof counts_path) return 0;
  if (library ? !realpath(library, audited) : !per_process) return 0;
  strcpy(counts_path, counts);
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

unsigned la_objopen(struct link_map* map, Lmid_t lmid, uintptr_t* cookie) {
  (void)lmid;
  (void)cookie;
  char real[PATH_MAX];
  configure_process();
  if (map->l_name[0] != '\0' && audited[0] != '\0' && realpath(map->l_name, real) && strcmp(real, audited) == 0) {
    return !slots && !open_counts() ? 0 : LA_FLG_BINDFROM;
  }
  if (strstr(map->l_name, "/libtorch")) return LA_FLG_BINDTO;
  return 0;
}

static int is_shim(const char* name) { return strncmp(name, "aoti_", 5) == 0 || strncmp(name, "torch_", 6) == 0; }

uintptr_t la_symbind64(Elf64_Sym* sym, unsigned ndx, uintptr_t* refcook, uintptr_t* defcook, unsigned* flags,
                       const char* name) {
  (void)ndx;
  (void)refcook;
  (void)defcook;
  (void)flags;
  if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || !is_shim(name) || strlen(name) >= kNameSize) return sym->st_value;
  uintptr_t target = sym->st_value;
  if (mutant && strcmp(name, mutated_name) == 0) target = mutant;
  if (slots_used >= kSlots) return target;
  unsigned slot = slots_used++;
  memcpy(slots[slot].name, name, strlen(name) + 1);
  abicheck_counter[slot] = &slots[slot].calls;
  abicheck_target[slot] = target;
  return (uintptr_t)(abicheck_stubs + (size_t)kStubSize * slot);
}
