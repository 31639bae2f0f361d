/* autosync stand-in for the CUDA samples' helper_functions.h (timers, command line, checks). */
#ifndef __AUTOSYNC_HELPER_FUNCTIONS_H
#define __AUTOSYNC_HELPER_FUNCTIONS_H
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
class StopWatchInterface {
public:
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual void reset() = 0;
  virtual float getTime() = 0;
  virtual float getAverageTime() = 0;
};
bool sdkCreateTimer(StopWatchInterface **timer);
bool sdkDeleteTimer(StopWatchInterface **timer);
bool sdkStartTimer(StopWatchInterface **timer);
bool sdkStopTimer(StopWatchInterface **timer);
bool sdkResetTimer(StopWatchInterface **timer);
float sdkGetTimerValue(StopWatchInterface **timer);
float sdkGetAverageTimerValue(StopWatchInterface **timer);
bool checkCmdLineFlag(const int argc, const char **argv, const char *string_ref);
int getCmdLineArgumentInt(const int argc, const char **argv, const char *string_ref);
float getCmdLineArgumentFloat(const int argc, const char **argv, const char *string_ref);
bool getCmdLineArgumentString(const int argc, const char **argv, const char *string_ref, char **string_retval);
char *sdkFindFilePath(const char *filename, const char *executable_path);
bool sdkCompareL2fe(const float *reference, const float *data, const unsigned int len, const float epsilon);
bool compareData(const float *reference, const float *data, const unsigned int len, const float epsilon, const float threshold);
#endif
